import hnswlib from 'hnswlib-node';
import { clusterModel, sampleVectors, seededRandom, exactNearest, rowOf } from './synthetic-corpus.js';
const N = Number(process.argv[2] ?? 10000), noise = Number(process.argv[3] ?? 1), D = 512;
const r = seededRandom(1);
const model = clusterModel(D, 200, noise, r);
const data = sampleVectors(model, N, r);
const qs = sampleVectors(model, 100, seededRandom(2));
let t = performance.now();
const idx = new hnswlib.HierarchicalNSW('cosine', D);
idx.initIndex({ maxElements: N, m: 16, efConstruction: 200 });
for (let i = 0; i < N; i++) idx.addPoint(Array.from(rowOf(data, D, i)), i);
console.log('build', ((performance.now() - t) / 1000).toFixed(1), 's');
for (const ef of [64, 128, 256]) {
  idx.setEf(ef);
  let hit = 0; let ms = 0; let cosTop = 0, cos10 = 0;
  for (let q = 0; q < 100; q++) {
    const qv = rowOf(qs, D, q);
    const truth = exactNearest(data, D, qv, 10);
    const s = performance.now();
    const res = idx.searchKnn(Array.from(qv), 10);
    ms += performance.now() - s;
    const set = new Set(truth);
    hit += res.neighbors.filter((n) => set.has(n)).length;
    const dot = (row: number) => { let d = 0; const v = rowOf(data, D, row); for (let i = 0; i < D; i++) d += v[i]! * qv[i]!; return d; };
    cosTop += dot(truth[0]!); cos10 += dot(truth[9]!);
  }
  console.log({ ef, recall: hit / 1000, msPerQuery: ms / 100, cosTop: cosTop / 100, cos10: cos10 / 100 });
}
