import { prepareDocument } from './prepare-document.js';

/** Piscina entry point: runs in a worker thread. */
export default prepareDocument;
