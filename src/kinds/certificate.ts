/**
 * A certificate (a SAML provider's; a site's publishing key is compared the same way): what is compared and what
 * plans show. The text is never shown; its fingerprint
 * is `sha256:<hex>` of the certificate's DER bytes when the text holds PEM blocks (`-----BEGIN …-----`, the
 * bytes of every block in order) or is the bare base64 of a DER structure (as IdP metadata carries it), and of
 * the text itself (trimmed, line endings as LF) otherwise. For one PEM certificate that is the usual SHA-256
 * fingerprint (`openssl x509 -in idp.pem -outform der | sha256sum`). Two certificates are equal when their
 * fingerprints are: whitespace, line endings and PEM line wrapping never make a change.
 */
import { sha256Hex } from '../manifests/file-refs.js';

/** What a request sends: trimmed, line endings as LF (a Windows checkout does not change what is sent). */
export function certificateText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Bytes(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact === '' || compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}

/** The DER bytes the text holds (PEM blocks, or bare base64 of an ASN.1 SEQUENCE); undefined when it holds none. */
export function certificateDer(text: string): Buffer | undefined {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  if (blocks.length > 0) {
    const parts = blocks.map((b) => base64Bytes(b[2] ?? ''));
    return parts.every((p): p is Buffer => p !== undefined) ? Buffer.concat(parts) : undefined;
  }
  const bare = base64Bytes(text);
  // 0x30: a DER SEQUENCE, as every X.509 certificate starts; other base64-looking text stays text.
  return bare !== undefined && bare[0] === 0x30 ? bare : undefined;
}

/** `sha256:<hex>` of the DER bytes, else of the normalised text; '' for an empty certificate (none set). */
export function certificateFingerprint(text: string): string {
  const normal = certificateText(text);
  if (normal === '') return '';
  const der = certificateDer(normal);
  return `sha256:${sha256Hex(der ?? Buffer.from(normal, 'utf8'))}`;
}
