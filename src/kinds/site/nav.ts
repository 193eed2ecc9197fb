/**
 * What the sections part of a site's diff (sections-diff.ts) tells the group, order, defaults and cascades parts:
 * which ids and refs stand for which desired sections and site spaces, and what moves, leaves or is pruned.
 */
import type { LiveSection, LiveSiteSpace, SectionSpec, SiteSpaceSpec } from './model.js';
import type { PathPlan } from './paths.js';

export interface NavSection {
  path: string;
  /** Live id or ref to the create step. */
  id: string;
  live?: LiveSection;
  spec: SectionSpec;
  /** For a section created by this plan: the site space its POST creates. */
  posted?: SiteSpaceSpec;
  /** The live root site space that `posted` replaces (deleted in the delete phase). */
  replaces?: LiveSiteSpace;
}

export interface NavSiteSpace {
  /** Live id, or a ref to the step (or the section step's firstSiteSpace) that creates it. */
  id: string;
  name: string;
  /** The space id (or a ref to the step creating the space). */
  spaceId: string;
  /** A live site space that comes from another section (moved by the reorder step). */
  incoming: boolean;
  isNew: boolean;
  /** Created by its section's POST (the section's first, and default, site space). */
  withSection?: boolean;
}

export interface Nav {
  /** Desired sections that exist or are created, in manifest order. */
  sections: NavSection[];
  /** Container (inSection(id) or ROOT) → desired site spaces, in order. */
  containers: Map<string, NavSiteSpace[]>;
  /** Sections created in this plan (ids are refs), in order. */
  createdSections: string[];
  /** Container → site spaces created concurrently in it. */
  createdSiteSpaces: Map<string, string[]>;
  /** Live sections deleted by this plan. */
  prunedSections: Set<string>;
  /** Live site spaces leaving their section (moved elsewhere or deleted). */
  leaving: Set<string>;
  /** Desired site spaces of new sections that take over a live root site space (see sections-diff.ts). */
  rootClaims: Map<SiteSpaceSpec, LiveSiteSpace>;
  /** Site space id or ref → its path as the reorder step finds it, and the path it must end with. */
  paths: Map<string, PathPlan>;
  /** Root site spaces no section lists, in whichever of several new sections the server puts them (unknown). */
  floating: Set<string>;
  /** Pruned section id → the site space made its default before its default one moves out. */
  prunedDefaults: Map<string, LiveSiteSpace>;
  /** Section container → its default site space when the reorder step starts (set by the defaults part). */
  orderDefaults: Map<string, string>;
  /** Section containers whose site spaces all arrive from elsewhere: the reorder step makes the first to arrive the default. */
  lateDefaults: Set<string>;
}
