// Generated from schemas/site.schema.json by tools/build/spec-types.ts (npm run build): edit the schema, not this file.
import type { SpecSchema } from '../../model/kind.js';
import { loadSchema } from '../schema.js';

/**
 * A space: the title of a Space manifest, or a space id (a live space title also works).
 */
export type SpaceRef = string;
/**
 * Path on the site (1..100 characters, no slash or space).
 */
export type Path = string;
/**
 * Expression deciding whether the visitor sees it (1..1024 characters); null removes it.
 */
export type Condition = string | null;
/**
 * A site space: a space reference, or {space, path, condition, hidden, draft}.
 */
export type SiteSpace =
  | SpaceRef
  | {
      space: SpaceRef;
      path?: Path;
      condition?: Condition;
      /**
       * Hidden from the site's navigation (still reachable by its URL).
       */
      hidden?: boolean;
      /**
       * A draft: not live on the site.
       */
      draft?: boolean;
    };

/**
 * One docs site of the organization, identified by title, or by a pinned id (which allows renaming). The order of sections, of a group's sections and of site spaces is the navigation order.
 */
export type SiteManifestSpec = {
  /**
   * Site title (2..128 characters).
   */
  title: string;
  /**
   * Pinned site id: the site is found by id and renamed when its live title differs.
   */
  id?: string;
  /**
   * Who can see the published site.
   */
  visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
  /**
   * Base path of the site (1..100 characters).
   */
  basename?: string;
  /**
   * Proxy origin: a host and a path, no scheme, such as `acme.com/docs` (≤512 characters; the API's SiteProxyOrigin pattern); null removes the proxy. Read back from proxy.origin.
   */
  proxy?: string | null;
  /**
   * Adaptive content on or off.
   */
  adaptiveContent?: {
    enabled: boolean;
  };
  /**
   * Whether AI agents can access the site.
   */
  agentsContext?: 'included' | 'excluded';
  /**
   * Path on the site (1..100 characters, no slash or space).
   */
  defaultSection?: string;
  /**
   * The default site space: {section, space} (the section must be the default section), or just a space for a site without sections.
   */
  defaultSiteSpace?:
    | SpaceRef
    | {
        section?: Path;
        space: SpaceRef;
      };
  /**
   * The sections, in navigation order. Written: the complete list (sections not listed are unmanaged, or deleted under prune).
   */
  sections?: {
    path: Path;
    title?: string;
    icon?: string | null;
    description?: string | null;
    condition?: Condition;
    /**
     * A draft: not live on the site.
     */
    draft?: boolean;
    localizedTitle?: Localized128;
    localizedDescription?: Localized256;
    /**
     * Site spaces of the section, in order (at least one).
     *
     * @minItems 1
     */
    spaces: SiteSpace[];
  }[];
  /**
   * Section groups. A group sits in the navigation where its first member appears in `sections`; its members follow the group's own order.
   */
  sectionGroups?: {
    title: string;
    icon?: string | null;
    /**
     * A draft: not live on the site.
     */
    draft?: boolean;
    localizedTitle?: Localized128;
    /**
     * Paths of the member sections, in order.
     *
     * @minItems 1
     */
    sections: Path[];
  }[];
  /**
   * Root site spaces of a site without sections, in order.
   */
  spaces?: SiteSpace[];
  /**
   * Share links by name. Their secret URLs are never read into plans or logs.
   */
  shareLinks?: {
    name: string;
    active?: boolean;
  }[];
  /**
   * How the published site looks: only the members written are managed. Inline, or {file: path} naming a YAML file that holds the block (one brand shared by several sites).
   */
  customization?:
    | {
        /**
         * A YAML file (relative to this manifest, inside the manifests directory) holding the customization block.
         */
        file: string;
      }
    | Customization;
  /**
   * When written, the complete list of teams and organization members holding a role on the site: grants not listed are removed (whatever the document's prune setting), listed ones are granted or get the written role. Left out: grants are neither read nor changed.
   */
  access?: (
    | {
        /**
         * A Team manifest title, a live team title or a team id.
         */
        team: string;
        /**
         * Role on the site; null = an override that gives no access to the site.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
      }
    | {
        /**
         * An organization member's e-mail address (case-insensitive).
         */
        email: string;
        /**
         * Role on the site; null = an override that gives no access to the site.
         */
        role: 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | null;
      }
  )[];
  /**
   * Whether the site is live: true publishes it (once its structure is built), false unpublishes it (counted as a delete by the safety gate). A new site is unpublished. A publish the organization's plan does not cover fails its step, saying so.
   */
  published?: boolean;
  /**
   * Visitor sign-in (authenticated access) of the site: the official spec's publishing-auth settings. Only the fields written are compared. The private key is never printed: plans show its fingerprint.
   */
  publishingAuth?: {
    /**
     * Who signs visitors in: your own backend (custom) or the site's authenticated-access integration.
     */
    backend?: 'custom' | 'integration';
    /**
     * Where visitors go when signing in fails; null unsets it.
     */
    fallbackURL?: string | null;
    /**
     * Where visitors are sent to sign out of your backend; null unsets it.
     */
    logoutURL?: string | null;
    /**
     * The key the platform signs visitor tokens with, as your sign-in backend holds it: ${VAR} of an allowed variable, or {file}. The API cannot set a key (it only generates a new one), so it is compared by fingerprint: a different live key blocks the site until the two agree.
     */
    privateKey?:
      | string
      | {
          /**
           * Path relative to this manifest, inside the manifests directory.
           */
          file: string;
        };
  };
  /**
   * External links of the navigation (a site with sections), by title: at the top level, or in a section group. Written: links not listed are unmanaged, or deleted under prune. Their place among the sections is not managed: a new link goes at the end of its container.
   */
  externalLinks?: {
    /**
     * Title (2..128 characters); the link's identity within the site.
     */
    title: string;
    /**
     * The absolute http(s) URL it opens.
     */
    url: string;
    description?: string | null;
    icon?: string | null;
    condition?: Condition;
    /**
     * A draft: not live on the site.
     */
    draft?: boolean;
    localizedTitle?: Localized128;
    localizedDescription?: Localized256;
    /**
     * Title of the section group holding it; null: the top level; left out: where it is (a new link: the top level).
     */
    group?: string | null;
  }[];
  /**
   * When written, the complete list of the site's redirect rules, live and draft: rules not listed are removed (whatever the document's prune setting). Written in bulk, at most 500 rules per request. Left out: rules are neither read nor changed.
   */
  redirects?: Redirect[];
  /**
   * The visitor schema of adaptive content (JSON Schema draft-07 subset): boolean claims, plus an optional `unsigned` object of boolean claims. Sent in the API's official form: descriptions left out are filled in (a claim's name; the fixed text of `unsigned`).
   */
  adaptiveSchema?: {
    $schema?: 'http://json-schema.org/draft-07/schema#';
    type: 'object';
    additionalProperties: false;
    properties: {
      unsigned?: {
        type: 'object';
        /**
         * The API's fixed text; docops fills it in when left out.
         */
        description?: 'Unsigned claims of the site visitor.';
        properties: Claims;
        additionalProperties: false;
      };
      [k: string]:
        | Claim
        | {
            type: 'object';
            /**
             * The API's fixed text; docops fills it in when left out.
             */
            description?: 'Unsigned claims of the site visitor.';
            properties: Claims;
            additionalProperties: false;
          }
        | undefined;
    };
  };
};
/**
 * Language → the text in that language (at most 128 characters): overrides for the site's other languages.
 */
export type Localized128 = {
  [k: string]: string | undefined;
};
/**
 * Language → the text in that language (at most 256 characters): overrides for the site's other languages.
 */
export type Localized256 = {
  [k: string]: string | undefined;
};
/**
 * How the published site looks (the official spec's SiteCustomizationSettingsInput, every member optional). Only what is written is managed: docops reads the live customization at apply time and writes it back with these values changed; members not written keep their live value. Objects merge member by member, except favicon, header.primaryLink, announcement.link and the fonts, which are replaced whole, like lists.
 */
export type Customization = {
  title?: string;
  localizedTitle?: {
    [k: string]: string | undefined;
  };
  styling?: {
    theme?: 'clean' | 'muted' | 'bold' | 'gradient';
    primaryColor?: {
      light?: string;
      dark?: string;
    };
    tint?: {
      color?: {
        light?: string;
        dark?: string;
      };
    };
    infoColor?: {
      light?: string;
      dark?: string;
    };
    successColor?: {
      light?: string;
      dark?: string;
    };
    warningColor?: {
      light?: string;
      dark?: string;
    };
    dangerColor?: {
      light?: string;
      dark?: string;
    };
    corners?: 'straight' | 'rounded' | 'circular';
    depth?: 'subtle' | 'flat';
    links?: 'default' | 'accent';
    font?:
      | (
          | 'ABCFavorit'
          | 'Inter'
          | 'Roboto'
          | 'RobotoSlab'
          | 'OpenSans'
          | 'SourceSansPro'
          | 'Lato'
          | 'Ubuntu'
          | 'Raleway'
          | 'Merriweather'
          | 'Overpass'
          | 'NotoSans'
          | 'IBMPlexSerif'
          | 'Poppins'
          | 'FiraSans'
        )
      | {
          id: string;
          custom: boolean;
          fontFamily: string;
          /**
           * @minItems 1
           */
          fontFaces: {
            weight: number;
            /**
             * @minItems 1
             */
            sources: {
              url: string;
            }[];
          }[];
        };
    headingFont?:
      | (
          | 'ABCFavorit'
          | 'Inter'
          | 'Roboto'
          | 'RobotoSlab'
          | 'OpenSans'
          | 'SourceSansPro'
          | 'Lato'
          | 'Ubuntu'
          | 'Raleway'
          | 'Merriweather'
          | 'Overpass'
          | 'NotoSans'
          | 'IBMPlexSerif'
          | 'Poppins'
          | 'FiraSans'
        )
      | {
          id: string;
          custom: boolean;
          fontFamily: string;
          /**
           * @minItems 1
           */
          fontFaces: {
            weight: number;
            /**
             * @minItems 1
             */
            sources: {
              url: string;
            }[];
          }[];
        }
      | null;
    monospaceFont?:
      | ('FiraCode' | 'IBMPlexMono' | 'JetBrainsMono' | 'SourceCodePro' | 'RobotoMono' | 'SpaceMono' | 'DMMono' | 'Inconsolata')
      | {
          id: string;
          custom: boolean;
          fontFamily: string;
          /**
           * @minItems 1
           */
          fontFaces: {
            weight: number;
            /**
             * @minItems 1
             */
            sources: {
              url: string;
            }[];
          }[];
        };
    background?: 'plain' | 'match';
    icons?: 'regular' | 'solid' | 'duotone' | 'light' | 'thin';
    codeTheme?: {
      default?: {
        light?:
          | 'default-light'
          | 'default-dark'
          | 'monochrome-light'
          | 'monochrome-dark'
          | 'andromeeda'
          | 'aurora-x'
          | 'ayu-dark'
          | 'catppuccin-frappe'
          | 'catppuccin-latte'
          | 'catppuccin-macchiato'
          | 'catppuccin-mocha'
          | 'dark-plus'
          | 'dracula'
          | 'dracula-soft'
          | 'everforest-dark'
          | 'everforest-light'
          | 'github-dark'
          | 'github-dark-default'
          | 'github-dark-dimmed'
          | 'github-dark-high-contrast'
          | 'github-light'
          | 'github-light-default'
          | 'github-light-high-contrast'
          | 'gruvbox-dark-hard'
          | 'gruvbox-dark-medium'
          | 'gruvbox-dark-soft'
          | 'gruvbox-light-hard'
          | 'gruvbox-light-medium'
          | 'gruvbox-light-soft'
          | 'houston'
          | 'kanagawa-dragon'
          | 'kanagawa-lotus'
          | 'kanagawa-wave'
          | 'laserwave'
          | 'light-plus'
          | 'material-theme'
          | 'material-theme-darker'
          | 'material-theme-lighter'
          | 'material-theme-ocean'
          | 'material-theme-palenight'
          | 'min-dark'
          | 'min-light'
          | 'monokai'
          | 'night-owl'
          | 'nord'
          | 'one-dark-pro'
          | 'one-light'
          | 'plastic'
          | 'poimandres'
          | 'red'
          | 'rose-pine'
          | 'rose-pine-dawn'
          | 'rose-pine-moon'
          | 'slack-dark'
          | 'slack-ochin'
          | 'snazzy-light'
          | 'solarized-dark'
          | 'solarized-light'
          | 'synthwave-84'
          | 'tokyo-night'
          | 'vesper'
          | 'vitesse-black'
          | 'vitesse-dark'
          | 'vitesse-light';
        dark?:
          | 'default-light'
          | 'default-dark'
          | 'monochrome-light'
          | 'monochrome-dark'
          | 'andromeeda'
          | 'aurora-x'
          | 'ayu-dark'
          | 'catppuccin-frappe'
          | 'catppuccin-latte'
          | 'catppuccin-macchiato'
          | 'catppuccin-mocha'
          | 'dark-plus'
          | 'dracula'
          | 'dracula-soft'
          | 'everforest-dark'
          | 'everforest-light'
          | 'github-dark'
          | 'github-dark-default'
          | 'github-dark-dimmed'
          | 'github-dark-high-contrast'
          | 'github-light'
          | 'github-light-default'
          | 'github-light-high-contrast'
          | 'gruvbox-dark-hard'
          | 'gruvbox-dark-medium'
          | 'gruvbox-dark-soft'
          | 'gruvbox-light-hard'
          | 'gruvbox-light-medium'
          | 'gruvbox-light-soft'
          | 'houston'
          | 'kanagawa-dragon'
          | 'kanagawa-lotus'
          | 'kanagawa-wave'
          | 'laserwave'
          | 'light-plus'
          | 'material-theme'
          | 'material-theme-darker'
          | 'material-theme-lighter'
          | 'material-theme-ocean'
          | 'material-theme-palenight'
          | 'min-dark'
          | 'min-light'
          | 'monokai'
          | 'night-owl'
          | 'nord'
          | 'one-dark-pro'
          | 'one-light'
          | 'plastic'
          | 'poimandres'
          | 'red'
          | 'rose-pine'
          | 'rose-pine-dawn'
          | 'rose-pine-moon'
          | 'slack-dark'
          | 'slack-ochin'
          | 'snazzy-light'
          | 'solarized-dark'
          | 'solarized-light'
          | 'synthwave-84'
          | 'tokyo-night'
          | 'vesper'
          | 'vitesse-black'
          | 'vitesse-dark'
          | 'vitesse-light';
      };
      openapi?: {
        light?:
          | 'default-light'
          | 'default-dark'
          | 'monochrome-light'
          | 'monochrome-dark'
          | 'andromeeda'
          | 'aurora-x'
          | 'ayu-dark'
          | 'catppuccin-frappe'
          | 'catppuccin-latte'
          | 'catppuccin-macchiato'
          | 'catppuccin-mocha'
          | 'dark-plus'
          | 'dracula'
          | 'dracula-soft'
          | 'everforest-dark'
          | 'everforest-light'
          | 'github-dark'
          | 'github-dark-default'
          | 'github-dark-dimmed'
          | 'github-dark-high-contrast'
          | 'github-light'
          | 'github-light-default'
          | 'github-light-high-contrast'
          | 'gruvbox-dark-hard'
          | 'gruvbox-dark-medium'
          | 'gruvbox-dark-soft'
          | 'gruvbox-light-hard'
          | 'gruvbox-light-medium'
          | 'gruvbox-light-soft'
          | 'houston'
          | 'kanagawa-dragon'
          | 'kanagawa-lotus'
          | 'kanagawa-wave'
          | 'laserwave'
          | 'light-plus'
          | 'material-theme'
          | 'material-theme-darker'
          | 'material-theme-lighter'
          | 'material-theme-ocean'
          | 'material-theme-palenight'
          | 'min-dark'
          | 'min-light'
          | 'monokai'
          | 'night-owl'
          | 'nord'
          | 'one-dark-pro'
          | 'one-light'
          | 'plastic'
          | 'poimandres'
          | 'red'
          | 'rose-pine'
          | 'rose-pine-dawn'
          | 'rose-pine-moon'
          | 'slack-dark'
          | 'slack-ochin'
          | 'snazzy-light'
          | 'solarized-dark'
          | 'solarized-light'
          | 'synthwave-84'
          | 'tokyo-night'
          | 'vesper'
          | 'vitesse-black'
          | 'vitesse-dark'
          | 'vitesse-light';
        dark?:
          | 'default-light'
          | 'default-dark'
          | 'monochrome-light'
          | 'monochrome-dark'
          | 'andromeeda'
          | 'aurora-x'
          | 'ayu-dark'
          | 'catppuccin-frappe'
          | 'catppuccin-latte'
          | 'catppuccin-macchiato'
          | 'catppuccin-mocha'
          | 'dark-plus'
          | 'dracula'
          | 'dracula-soft'
          | 'everforest-dark'
          | 'everforest-light'
          | 'github-dark'
          | 'github-dark-default'
          | 'github-dark-dimmed'
          | 'github-dark-high-contrast'
          | 'github-light'
          | 'github-light-default'
          | 'github-light-high-contrast'
          | 'gruvbox-dark-hard'
          | 'gruvbox-dark-medium'
          | 'gruvbox-dark-soft'
          | 'gruvbox-light-hard'
          | 'gruvbox-light-medium'
          | 'gruvbox-light-soft'
          | 'houston'
          | 'kanagawa-dragon'
          | 'kanagawa-lotus'
          | 'kanagawa-wave'
          | 'laserwave'
          | 'light-plus'
          | 'material-theme'
          | 'material-theme-darker'
          | 'material-theme-lighter'
          | 'material-theme-ocean'
          | 'material-theme-palenight'
          | 'min-dark'
          | 'min-light'
          | 'monokai'
          | 'night-owl'
          | 'nord'
          | 'one-dark-pro'
          | 'one-light'
          | 'plastic'
          | 'poimandres'
          | 'red'
          | 'rose-pine'
          | 'rose-pine-dawn'
          | 'rose-pine-moon'
          | 'slack-dark'
          | 'slack-ochin'
          | 'snazzy-light'
          | 'solarized-dark'
          | 'solarized-light'
          | 'synthwave-84'
          | 'tokyo-night'
          | 'vesper'
          | 'vitesse-black'
          | 'vitesse-dark'
          | 'vitesse-light';
      };
    };
    sidebar?: {
      background?: 'default' | 'filled';
      list?: 'default' | 'pill' | 'line';
    };
    search?: 'prominent' | 'subtle';
  };
  internationalization?: {
    locale?: 'en' | 'fr' | 'es' | 'zh' | 'ja' | 'de' | 'nl' | 'no' | 'pt-br' | 'ru';
  };
  favicon?:
    | {
        icon: {
          light: string;
          dark: string;
        };
      }
    | {
        emoji: string;
      }
    | {};
  header?: {
    preset?: 'default' | 'bold' | 'contrast' | 'custom' | 'none';
    logo?: {
      light?: string;
      dark?: string;
    };
    primaryLink?:
      | {
          kind: 'file';
          file: string;
          space?: string;
        }
      | {
          kind: 'url';
          url: string;
        }
      | {
          kind: 'page';
          page: string;
          space?: string;
        }
      | {
          kind: 'anchor';
          anchor: string;
          space?: string;
          page?: string;
        }
      | {
          kind: 'user';
          user: string;
        }
      | {
          kind: 'collection';
          collection: string;
        }
      | {
          kind: 'space';
          space: string;
        }
      | {
          kind: 'reusable-content';
          reusableContent: string;
          space?: string;
        }
      | {
          kind: 'tag';
          tag: string;
          space?: string;
        }
      | {
          kind: 'openapi';
          spec: string;
        };
    backgroundColor?: {
      light?: string;
      dark?: string;
    };
    linkColor?: {
      light?: string;
      dark?: string;
    };
    links?: {
      title: string;
      localizedTitle?: {
        [k: string]: string | undefined;
      };
      style?: 'link' | 'button-primary' | 'button-secondary';
      to:
        | (
            | {
                kind: 'file';
                file: string;
                space?: string;
              }
            | {
                kind: 'url';
                url: string;
              }
            | {
                kind: 'page';
                page: string;
                space?: string;
              }
            | {
                kind: 'anchor';
                anchor: string;
                space?: string;
                page?: string;
              }
            | {
                kind: 'user';
                user: string;
              }
            | {
                kind: 'collection';
                collection: string;
              }
            | {
                kind: 'space';
                space: string;
              }
            | {
                kind: 'reusable-content';
                reusableContent: string;
                space?: string;
              }
            | {
                kind: 'tag';
                tag: string;
                space?: string;
              }
            | {
                kind: 'openapi';
                spec: string;
              }
          )
        | null;
      links: {
        title: string;
        localizedTitle?: {
          [k: string]: string | undefined;
        };
        to:
          | {
              kind: 'file';
              file: string;
              space?: string;
            }
          | {
              kind: 'url';
              url: string;
            }
          | {
              kind: 'page';
              page: string;
              space?: string;
            }
          | {
              kind: 'anchor';
              anchor: string;
              space?: string;
              page?: string;
            }
          | {
              kind: 'user';
              user: string;
            }
          | {
              kind: 'collection';
              collection: string;
            }
          | {
              kind: 'space';
              space: string;
            }
          | {
              kind: 'reusable-content';
              reusableContent: string;
              space?: string;
            }
          | {
              kind: 'tag';
              tag: string;
              space?: string;
            }
          | {
              kind: 'openapi';
              spec: string;
            };
      }[];
      condition?: string;
    }[];
  };
  footer?: {
    logo?: {
      light?: string;
      dark?: string;
    };
    groups?: {
      title: string;
      localizedTitle?: {
        [k: string]: string | undefined;
      };
      links: {
        title: string;
        localizedTitle?: {
          [k: string]: string | undefined;
        };
        to:
          | {
              kind: 'file';
              file: string;
              space?: string;
            }
          | {
              kind: 'url';
              url: string;
            }
          | {
              kind: 'page';
              page: string;
              space?: string;
            }
          | {
              kind: 'anchor';
              anchor: string;
              space?: string;
              page?: string;
            }
          | {
              kind: 'user';
              user: string;
            }
          | {
              kind: 'collection';
              collection: string;
            }
          | {
              kind: 'space';
              space: string;
            }
          | {
              kind: 'reusable-content';
              reusableContent: string;
              space?: string;
            }
          | {
              kind: 'tag';
              tag: string;
              space?: string;
            }
          | {
              kind: 'openapi';
              spec: string;
            };
      }[];
    }[];
    copyright?: string;
  };
  announcement?: {
    enabled?: boolean;
    message?: string;
    localizedMessage?: {
      [k: string]: string | undefined;
    };
    link?: {
      title: string;
      localizedTitle?: {
        [k: string]: string | undefined;
      };
      to:
        | {
            kind: 'file';
            file: string;
            space?: string;
          }
        | {
            kind: 'url';
            url: string;
          }
        | {
            kind: 'page';
            page: string;
            space?: string;
          }
        | {
            kind: 'anchor';
            anchor: string;
            space?: string;
            page?: string;
          }
        | {
            kind: 'user';
            user: string;
          }
        | {
            kind: 'collection';
            collection: string;
          }
        | {
            kind: 'space';
            space: string;
          }
        | {
            kind: 'reusable-content';
            reusableContent: string;
            space?: string;
          }
        | {
            kind: 'tag';
            tag: string;
            space?: string;
          }
        | {
            kind: 'openapi';
            spec: string;
          };
    };
    style?: 'info' | 'warning' | 'danger' | 'success';
  };
  themes?: {
    default?: 'light' | 'dark' | 'system';
    toggeable?: boolean;
  };
  feedback?: {
    enabled?: boolean;
  };
  ai?: {
    mode?: 'none' | 'search' | 'assistant';
    greeting?: string;
    localizedGreeting?: {
      [k: string]: string | undefined;
    };
    /**
     * @maxItems 5
     */
    suggestions?: string[];
    instructions?: string;
  };
  advancedCustomization?: {
    enabled?: boolean;
  };
  pageActions?: {
    items?: ('assistant' | 'external-ai' | 'markdown' | 'mcp' | 'git' | 'pdf')[];
  };
  externalLinks?: {
    target?: 'self' | 'blank';
  };
  pagination?: {
    enabled?: boolean;
  };
  trademark?: {
    enabled?: boolean;
  };
  privacyPolicy?: {
    url?: string;
  };
  socialPreview?: {
    url?: string;
  };
  /**
   * @maxItems 10
   */
  socialAccounts?: {
    platform:
      | 'twitter'
      | 'instagram'
      | 'facebook'
      | 'linkedin'
      | 'github'
      | 'discord'
      | 'slack'
      | 'youtube'
      | 'tiktok'
      | 'reddit'
      | 'bluesky'
      | 'mastodon'
      | 'threads'
      | 'medium';
    handle: string;
    display: {
      footer: boolean;
      header: boolean;
    };
  }[];
  insights?: {
    trackingCookie?: boolean;
  };
};
export type Redirect = {
  /**
   * The path visitors come from (at most 512 characters), e.g. /old/page; a trailing * or /* matches every path below it.
   */
  source: string;
  /**
   * Where the rule sends visitors: an absolute URL; {section: PATH}, a section of this site; {section: PATH, space: SPACE}, a site space (just {space: SPACE} at the root of a site without sections), with page: PAGE_ID for one of its pages.
   */
  destination:
    | string
    | {
        section: Path;
      }
    | {
        section?: Path;
        space: SpaceRef;
        /**
         * A page of the space, by id.
         */
        page?: string;
      };
  /**
   * A permanent redirect (HTTP 308 for public live traffic); a new rule is temporary. Left out: a new rule is temporary, a live one keeps its setting.
   */
  permanent?: boolean;
  /**
   * Append what the source's * matched to the destination. Left out: a new rule does not, a live one keeps its setting.
   */
  captureWildcard?: boolean;
  /**
   * A draft rule (not live). One live and one draft rule may share a source.
   */
  draft?: boolean;
};
/**
 * Claim name → {type: boolean, description}.
 */
export type Claims = {
  [k: string]: Claim | undefined;
};
export type Claim = {
  /**
   * Claims are booleans.
   */
  type: 'boolean';
  /**
   * What the claim says about the visitor. Left out, docops sends the claim name (the API requires a description).
   */
  description?: string;
};

/** schemas/site.schema.json, whose valid documents have the type SiteManifestSpec. */
export const siteSchema: SpecSchema<SiteManifestSpec> = loadSchema('site');
