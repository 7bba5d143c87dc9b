// RUN: nplus1gen %s --validate --global 4096 -q
// RUN: nplus1gen %s --validate --global 4096 -q --no-line --strategy atomic,tile
// EXPECT: match all-leaves
/* Regression (issue 26, item 1; MandelCuda's Mandel4s.cl): this file starts with a
 * UTF-8 byte-order mark (EF BB BF), as editors on Windows write it. --check passed,
 * but the mark was copied into the generated file after its head, where clang
 * rejects it ("unexpected character <U+FEFF>"): -o, --validate and --profile
 * exited 3. */
__kernel void mandel(__global const float *re, __global int *out)
{
    int i = get_global_id(0);
    float c = re[i] * 3.0f - 2.0f, x = 0.0f;
    if (c > 0.25f) {
        out[i] = 0;
    } else {
        int n = 0;
        while (n < 64 && x * x < 4.0f) {
            x = x * x + c;
            n++;
        }
        out[i] = n;
    }
}
