import { posix } from 'node:path';
import JSZip from 'jszip';
import type { XmlElement } from './xml-tree.js';
import { childElements, findFirst, parseXml, textContent } from './xml-tree.js';

/** An opened DOCX/PPTX/XLSX zip: parts are XML files addressed by path, linked by relationship files. */
export interface OoxmlPackage {
  zip: JSZip;
}

export async function openPackage(bytes: Uint8Array): Promise<OoxmlPackage> {
  return { zip: await JSZip.loadAsync(bytes) };
}

/** A part parsed as XML, or undefined when the package does not have it. */
export async function readPart(pkg: OoxmlPackage, partPath: string): Promise<XmlElement | undefined> {
  const file = pkg.zip.file(partPath);
  return file ? parseXml(await file.async('string')) : undefined;
}

/** A part's relationships as id → target part path (external targets such as hyperlinks left out). */
export async function readRelationships(pkg: OoxmlPackage, partPath: string): Promise<Map<string, Relationship>> {
  const directory = posix.dirname(partPath);
  const rels = await readPart(pkg, posix.join(directory, '_rels', `${posix.basename(partPath)}.rels`));
  const relationships = new Map<string, Relationship>();
  for (const rel of rels ? childElements(rels, 'Relationship') : []) {
    const { Id: id, Target: target, Type: type = '', TargetMode: mode } = rel.attributes;
    if (!id || !target || mode === 'External') continue;
    const resolved = target.startsWith('/') ? target.slice(1) : posix.join(directory, target);
    relationships.set(id, { target: resolved, type: type.slice(type.lastIndexOf('/') + 1) });
  }
  return relationships;
}

export interface Relationship {
  /** Path of the target part inside the package. */
  target: string;
  /** The last segment of the relationship type URI, e.g. "slide" or "notesSlide". */
  type: string;
}

/** The title from the document properties (File › Properties), if the author set one. */
export async function readCoreTitle(pkg: OoxmlPackage): Promise<string | undefined> {
  const core = await readPart(pkg, 'docProps/core.xml').catch(() => undefined);
  const title = core && findFirst(core, 'dc:title');
  const text = title ? textContent(title).trim() : '';
  return text || undefined;
}
