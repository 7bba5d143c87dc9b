// RUN: nplus1gen %s --validate --global 4352 --local 256 --arg nr=64 --arg nc=64 \
// RUN: --arg ne=4096 --arg q0=0.5 --arg iN=range:0:64 --arg iS=range:0:64 --arg jW=range:0:64 \
// RUN: --arg jE=range:0:64 --arg img=range:0.5:2 --arg c=size:4352 --split always \
// RUN: --require-all-leaves --report
// RUN: nplus1gen %s --validate --global 4096 --offset 256 --local 256 --arg nr=64 --arg nc=64 \
// RUN: --arg ne=4096 --arg q0=0.5 --arg iN=range:0:64 --arg iS=range:0:64 --arg jW=range:0:64 \
// RUN: --arg jE=range:0:64 --arg img=range:0.5:2 --arg c=size:4352 --split always \
// RUN: --strategy %{every_strategy} --dispatch host,fused
// EXPECT: match all-leaves
/*
 * Shape of: Rodinia (JuliaParallel/rodinia), opencl/srad/kernel/kernel_gpu_opencl.cl,
 * srad_kernel: the item's element is `bx * NUMBER_THREADS + tx`, bx and tx read into
 * variables from get_group_id(0) and get_local_id(0), more items than elements (an
 * `ei < d_Ne` guard), the four neighbours through index arrays, and a diffusion
 * coefficient saturated to [0, 1] by an if / else if on data. Rodinia's kernel has no
 * reqd_work_group_size, so nplus1gen cannot know that NUMBER_THREADS is the local size
 * and refuses it (tests/lit/refuse/local_id_linear.cl); with the attribute the sum is
 * the original's global id less its offset, which the generated kernels compute. The
 * second run gives a global offset, which group ids do not count.
 */
#define NUMBER_THREADS 256

__kernel __attribute__((reqd_work_group_size(NUMBER_THREADS, 1, 1)))
void srad_coefficient(float q0, int nr, int nc, long ne,
                      __global const int *iN, __global const int *iS,
                      __global const int *jW, __global const int *jE,
                      __global const float *img, __global float *c)
{
    int bx = get_group_id(0);
    int tx = get_local_id(0);
    int ei = bx * NUMBER_THREADS + tx;
    int row = (ei + 1) % nr - 1;
    int col = (ei + 1) / nr;
    if ((ei + 1) % nr == 0) {
        row = nr - 1;
        col = col - 1;
    }
    if (ei < ne) {
        float jc = img[ei];
        float dn = img[iN[row] + nr * col] - jc;
        float ds = img[iS[row] + nr * col] - jc;
        float dw = img[row + nr * jW[col]] - jc;
        float de = img[row + nr * jE[col]] - jc;
        float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
        float l = (dn + ds + dw + de) / jc;
        float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
        float den = 1.0f + 0.25f * l;
        float qsqr = num / (den * den);
        den = (qsqr - q0) / (q0 * q0); /* Rodinia: q0 * (1 + q0), never below -1 */
        float cl = 1.0f / (1.0f + den);
        if (cl < 0.0f)
            cl = 0.0f;
        else if (cl > 1.0f)
            cl = 1.0f;
        c[ei] = cl;
    }
}
