/**
 * What deleting a site or a section takes with it (Step.cascades). The server deletes a site with everything
 * below it (sections, section groups, site spaces, share links, its adaptive schema) and a section with its site
 * spaces; deleting a group only puts its sections back at its place, and a site space or share link takes nothing.
 * What a pruned site holds is read by the fetch (readSiteTrees in structure.ts).
 */
import type { LiveObject } from '../../model/kind.js';
import { pathSegments, type CascadeObject } from '../../model/plan.js';
import { isRecord, makeStep, plainSource, seg, stepId } from '../common.js';
import {
  SECTION_KIND,
  SITE_KIND,
  SITE_SPACE_KIND,
  WAVE,
  sectionKey,
  siteSpaceKey,
  type SiteStructure,
} from './model.js';
import { base, type SiteScope } from './scope.js';
import type { Nav } from './nav.js';
import { childObjects } from './structure.js';

/** Kind of a site's adaptive schema in cascades (it has no id or delete of its own). */
export const ADAPTIVE_SCHEMA_KIND = 'SiteAdaptiveSchema';

/** Everything a pruned site takes with it, in navigation order; the adaptive schema only when it defines claims. */
export function siteCascades(org: string, site: LiveObject, structure: SiteStructure | undefined): CascadeObject[] {
  if (!structure) return [];
  const out: CascadeObject[] = childObjects(org, site, structure).map((o) => ({
    kind: o.kind,
    org,
    key: o.key,
    id: o.id,
  }));
  const schema = structure.adaptiveSchema;
  const claims = isRecord(schema) && isRecord(schema['properties']) ? Object.keys(schema['properties']) : [];
  if (claims.length > 0)
    out.push({ kind: ADAPTIVE_SCHEMA_KIND, org, key: site.key, note: `visitor claims ${claims.join(', ')}` });
  return out;
}

/**
 * Section deletes of one managed site (after its whole diff): each lists the site spaces it takes — those still in
 * the section when it is deleted. A site space the manifest lists in another section leaves it first, in the
 * reorder step, which the delete then depends on (if it is the section's default, another site space that stays
 * becomes the default first). Should it be unable to leave (the reorder step does not move it, or it is the
 * section's last site space), the section is not deleted: its delete is blocked instead of taking it.
 */
export function sectionCascades(scope: SiteScope, nav: Nav): void {
  if (nav.prunedSections.size === 0) return;
  const { org, result } = scope;
  const order = result.steps.find((s) => s.id === stepId(SITE_KIND, org, scope.title, 'order'));
  const moved = order ? pathSegments(order) : new Set<string>();
  for (const section of scope.live.sections) {
    if (!nav.prunedSections.has(section.id)) continue;
    const key = sectionKey(scope.liveTitle, section.path);
    const step = result.steps.find((s) => s.id === stepId(SECTION_KIND, org, key, 'delete'));
    if (!step) continue;
    const inside = scope.live.siteSpaces.filter((x) => x.section === section.id);
    const leaving = inside.filter((x) => nav.leaving.has(x.id));
    const staying = inside.filter((x) => !nav.leaving.has(x.id));
    const leavingDefault = leaving.find((x) => x.default);
    // The server moves no section's default site space out of it, and a section keeps at least one.
    const stuck = leaving.filter((x) => !moved.has(x.id) || (x === leavingDefault && staying.length === 0));
    if (stuck.length > 0) {
      result.steps.splice(result.steps.indexOf(step), 1);
      const names = stuck.map((x) => `"${x.spaceTitle}"`).join(', ');
      result.blocked.push({
        kind: SECTION_KIND,
        org,
        key,
        message:
          `not deleted (prune): it holds ${names}, which the manifest lists in another section, and ${stuck.length === 1 ? 'it' : 'they'} cannot be moved out first ` +
          `(${staying.length === 0 ? 'a section keeps at least one site space' : 'the move could not be planned'}); deleting the section would delete ${stuck.length === 1 ? 'it' : 'them'}`,
        source: plainSource(scope.entry.doc.pos(['spec', 'sections'])),
      });
      continue;
    }
    const defaultId = stepId(SECTION_KIND, org, key, 'default');
    // The defaults diff may already give this section another default (the same step): then nothing to add.
    if (leavingDefault && order && !result.steps.some((s) => s.id === defaultId)) {
      // Its default site space moves out: another one that stays becomes the default first (as for kept sections).
      const pick = staying[0]!;
      const id = defaultId;
      result.steps.push(
        makeStep({
          id,
          action: 'update',
          phase: 'update',
          kind: SECTION_KIND,
          org,
          key,
          wave: WAVE.sectionDefault,
          before: { defaultSiteSpace: leavingDefault.spaceTitle },
          after: { defaultSiteSpace: pick.spaceTitle },
          requests: [
            {
              method: 'PATCH',
              path: `${base(scope)}/sections/${seg(section.id)}`,
              body: { defaultSiteSpace: pick.id },
            },
          ],
          note: 'its default site space moves to another section before the section is deleted (prune)',
        }),
      );
      order.dependsOn = [...new Set([...order.dependsOn, id])].sort();
    }
    // The order step moves the old default out only once another is the default.
    if (leavingDefault && order && result.steps.some((s) => s.id === defaultId))
      order.dependsOn = [...new Set([...order.dependsOn, defaultId])].sort();
    if (leaving.length > 0 && order) step.dependsOn = [...new Set([...step.dependsOn, order.id])].sort();
    const cascades = inside
      .filter((x) => !nav.leaving.has(x.id))
      .map((x) => ({
        kind: SITE_SPACE_KIND,
        org,
        key: siteSpaceKey(scope.liveTitle, section.path, x.spaceTitle),
        id: x.id,
      }));
    if (cascades.length > 0) step.cascades = cascades;
  }
}
