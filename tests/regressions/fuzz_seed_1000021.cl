// fuzzgen seed 1000021 (run.py --seed 1): at 9839e28 (and its working
// tree after) the validation runner died (SIGSEGV in a leaf kernel) or found
// mismatches in items no leaf took; fine at 9bf24de and from 5dd687e on.
// RUN: nplus1gen %s --validate -q --global 32,24 --offset 2,0 --local 1,1 --arg k=487 --arg s=0.4375 --seed 295236424 --dispatch host --wg 64
// EXPECT: match
/* nplus1gen fuzzgen: seed 1000021, legal */

static int h0f4255_0_wid(void)
{
    return ((int)get_global_id(0)) % 7;
}

static float h0f4255_0_wave(float x, float y)
{
    return sin(x) * 0.5f + cos(y) * 0.25f;
}

static bool h0f4255_1_pred(int v, float f)
{
    return (v % 3) != 1 || f < 0.46875f;
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fz_0f4255_0(__global const int *restrict ia,
        __global const float *restrict fa,
        __global const int *ib,
        __global float *out,
        __global int *iout,
        const int n,
        const int k,
        const float s)
{
    int gid = (int)(get_global_id(1) * (get_global_size(0) + get_global_offset(0)) + get_global_id(0));
    const int total = (int)((get_global_size(0) + get_global_offset(0)) * (get_global_size(1) + get_global_offset(1)));
    int iv = ia[gid];
    float fv = fa[gid];
    switch ((iv) & 7) {
    case 5:
    case 6:
        out[gid] = 2.5f + 0.25f * tanh((fv * 0.25f));
        break;
    }
    iout[gid] ^= ((int)get_global_id(0) + 22);
    out[gid] = out[gid] * 0.5f + 1.0f;
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void fz_0f4255_1(__global const int *ia,
        __global const float *fa,
        __constant int *ib,
        __global float *out,
        __global int *iout,
        const int n,
        const int k,
        const float s)
{
    int gid = (int)(get_global_id(1) * (get_global_size(0) + get_global_offset(0)) + get_global_id(0));
    const int total = (int)((get_global_size(0) + get_global_offset(0)) * (get_global_size(1) + get_global_offset(1)));
    int iv = ia[gid];
    float fv = fa[gid];
    int jv = ib[gid];
    int i1 = 16;
    if ((43 ^ 19) <= 33 && get_global_id(0) >= 20) {
        {
            float acc2 = fv;
            for (int it = 0; it < 6; it++)
                acc2 = exp(-fabs(acc2)) * 0.5f + 0.25f * fv;
            out[gid] = 2.0f + 0.25f * (fa[(gid + 2) % total] * 0.5f + log(1.0f + fabs(fv)) * 0.25f);
        }
        out[gid] = 1.5f + 0.25f * fv;
        return;
    }
    if (((int)get_global_id(0) > 22 ? (int)get_global_id(0) : jv) > 48) {
        if (h0f4255_1_pred((9 - 9), fmin(fv, fv))) {
            out[gid] = 1.5f + 0.25f * (tanh(fv) * 0.5f + exp(-fabs(fv)) * 0.25f);
            iout[gid] += (i1 > 16 ? i1 : (k * 4));
        } else {
            int i3 = (i1 + 66);
            float f4 = fv;
            out[gid] += 0.25f * fa[(gid + 2) % total] + 2.0f;
            {
                float acc5 = f4;
                for (int it = 0; it < 5; it++)
                    acc5 = mad(acc5, 0.25f, 0.125f) + 0.25f * f4;
                out[gid] += 0.25f * hypot(fv, 0.5f) + 1.5f;
            }
        }
        {
            int t6 = 0;
            int c7 = ((jv % 2)) & 7;
            while (c7 > 0) {
                t6 += c7 * 3 + 1;
                c7--;
            }
            iout[gid] = t6;
        }
    } else if ((min(30, iv) & 3) == 2) {
        {
            float acc8 = exp(-fabs(fv));
            for (int it = 0; it < 3; it++)
                acc8 = tanh(acc8) * 0.5f + 0.25f * ((fv * 4.0f) * 0.25f);
            out[gid] = 3.0f + 0.25f * fv;
        }
        switch (((7) & 7) - 2) {
        case -2:
            {
                float acc9 = log(1.0f + fabs(fv));
                for (int it = 0; it < 4; it++)
                    acc9 = tanh(acc9) * 0.5f + 0.25f * (sqrt(fabs(fv) + 1.0f) * 0.5f);
                out[gid] = 2.5f + 0.25f * sin(sqrt(fabs(acc9) + 1.0f));
            }
            out[gid] = 1.5f + 0.25f * clamp(fv, -1.0f, 1.0f);
            out[gid] += 0.25f * fv + 3.0f;
            break;
        case -1:
            {
                int t10 = 0;
                for (int it = 0; it < 5; it++)
                    t10 += ((ib[gid]) + it) & 31;
                iout[gid] = t10;
            }
            {
                int t11 = 0;
                for (int it = 0; it < 8; it++) {
                    if (it == (((i1 + 82)) & 7))
                        break;
                    t11 += it * it;
                }
                iout[gid] += t11;
            }
            iout[gid] = ((int)get_global_id(0) * 3);
            break;
        case 2:
            iout[gid] += (jv & 7);
            out[gid] = 2.0f + 0.25f * fmin(mad(fa[(gid + 2) % total], 0.5f, fv), fv);
            break;
        case 4:
            iout[gid] = k;
            return;
        default:
            iout[gid] ^= (jv & 31);
            {
                float acc12 = (fv * 0.5f + fv * 0.25f);
                for (int it = 0; it < 4; it++)
                    acc12 = cos(acc12) * 0.5f + 0.25f * exp(-fabs(fv));
                out[gid] = out[gid] * 0.5f + 3.0f + 0.125f * mad((fv * 0.5f + acc12 * 0.25f), 0.5f, fv);
            }
        case 5:
            out[gid] = 2.5f + 0.25f * sin(fv);
            out[gid] = 3.0f + 0.25f * log(1.0f + fabs(hypot((fv * 0.5f), 0.5f)));
            return;
        }
    } else if (fmax(fv, fv) < 0.40625f) {
        switch (((k > 252 ? k : 49)) & 3) {
        case 0:
        case 1:
            {
                int b13 = k;
                iout[gid] += (49 % 8);
            }
        default:
            i1 = i1 % 3;
            {
                float acc14 = fv;
                for (int it = 0; it < 6; it++)
                    acc14 = mad(acc14, 0.25f, 0.125f) + 0.25f * fv;
                out[gid] = out[gid] * 0.5f + 2.0f + 0.125f * (fmin(sqrt(fabs(acc14) + 1.0f), sqrt(fabs(acc14) + 1.0f)) * 0.5f);
            }
            if ((12 + 92) >= 104 || iv > 1009) {
                int i15 = i1;
                out[gid] += 0.25f * sqrt(fabs(fv) + 1.0f) + 1.5f;
            } else {
                {
                    float acc16 = (mad(fv, 0.5f, fv) * 0.5f);
                    for (int it = 0; it < 2; it++)
                        acc16 = sqrt(fabs(acc16) + 1.0f) * 0.25f + 0.25f * ((float)(i1) * 0.0625f);
                    out[gid] = 3.0f + 0.25f * exp(-fabs(mad(fv, 0.5f, acc16)));
                }
                out[gid] = 1.5f + 0.25f * fv;
                iout[gid] ^= iv;
            }
            break;
        }
        {
            float acc17 = (atan(fv) * 0.5f);
            for (int it = 0; it < 2; it++)
                acc17 = tanh(acc17) * 0.5f + 0.25f * fv;
            out[gid] += 0.25f * fmin(acc17, fv) + 1.5f;
        }
    } else {
        float f18 = fabs(fv - 0.75f);
        {
            float acc19 = (f18 * 0.5f);
            for (int it = 0; it < 2; it++)
                acc19 = mad(acc19, 0.25f, 0.125f) + 0.25f * fa[gid];
            out[gid] += 0.25f * log(1.0f + fabs(tanh(s))) + 3.0f;
        }
    }
    iout[gid] += (gid >> 1);
}
