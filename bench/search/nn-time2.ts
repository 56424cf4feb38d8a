const n = Number(process.argv[2] ?? 50000), d = 512;
const m = new Float32Array(n * d); for (let i = 0; i < m.length; i++) m[i] = Math.random() - 0.5;
const q = new Float32Array(d); for (let i = 0; i < d; i++) q[i] = Math.random() - 0.5;
const out = new Float32Array(n);
function scan() {
  for (let r = 0, base = 0; r < n; r++, base += d) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (let j = 0; j < d; j += 4) { s0 += q[j]! * m[base + j]!; s1 += q[j + 1]! * m[base + j + 1]!; s2 += q[j + 2]! * m[base + j + 2]!; s3 += q[j + 3]! * m[base + j + 3]!; }
    out[r] = s0 + s1 + s2 + s3;
  }
}
const mi = new Int8Array(n * d); for (let i = 0; i < mi.length; i++) mi[i] = Math.round(m[i]! * 250);
const qi = new Int8Array(d); for (let i = 0; i < d; i++) qi[i] = Math.round(q[i]! * 250);
const outi = new Int32Array(n);
function scanInt() {
  for (let r = 0, base = 0; r < n; r++, base += d) {
    let s0 = 0, s1 = 0;
    for (let j = 0; j < d; j += 2) { s0 = (s0 + qi[j]! * mi[base + j]!) | 0; s1 = (s1 + qi[j + 1]! * mi[base + j + 1]!) | 0; }
    outi[r] = s0 + s1;
  }
}
for (let r = 0; r < 5; r++) { let t = performance.now(); scan(); const a = performance.now() - t; t = performance.now(); scanInt(); console.log(`f32 ${a.toFixed(1)} ms, int8 ${(performance.now() - t).toFixed(1)} ms`); }
