/* race_scan.c: which buffers items may race on (written at an index read from memory, and read) */
__kernel void k(__global const int *e, __global int *a, __global int *b, __global int *c, __global int *d, __global int2 *s) {
  int t = get_global_id(0);
  int j = e[t];
  int q = j * 2 + 1;
  if (t & 1) a[q] = a[t] + 1;      /* racy via two locals */
  b[t] = b[e[t]] + 1;              /* read at dd, write at t: not flagged (write not dd) */
  c[e[t]] += 1;                    /* racy: compound */
  d[j] = 3;                        /* write only */
  s[j].x = s[t].y;                 /* racy */
}
