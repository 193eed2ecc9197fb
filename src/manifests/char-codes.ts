/** Character codes the YAML readers test text with (charCodeAt), by name. */
export const SPACE = 0x20;
export const DQUOTE = 0x22;
export const HASH = 0x23;
export const SQUOTE = 0x27;
export const COMMA = 0x2c;
export const DASH = 0x2d;
export const COLON = 0x3a;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
