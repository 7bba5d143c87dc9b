/*
 * photon_steps.cl - photon transport steps through layered tissue.
 *
 * Models the step loop of MCML-style Monte Carlo photon migration kernels
 * (GPU ports of MCML, CUDAMCML/MCX-like OpenCL code): each work-item
 * launches one photon packet and steps it until it escapes or dies. A step
 * is one of: a void layer (fly to its boundary, cheap), a boundary hit
 * (Fresnel reflect or transmit, medium), a tissue step (absorb part of the
 * weight, then Henyey-Greenstein scattering: log, sqrt, sin, cos), and
 * Russian roulette when the weight is low (survive with 1/10, else die).
 * Layers are slabs of unit thickness; layer[l] = (mua, mus, g, n).
 *
 * Today: the affine guard is the only top-level decision; the step
 * decisions sit inside the loop and stay in the leaf.
 */
#define NLAYERS 4
#define ROULETTE_W 0.001f
#define ROULETTE_CHANCE 0.1f

static float rnd(uint *s)
{
    *s = *s * 1664525u + 1013904223u;
    return ((float)(*s >> 8) + 0.5f) * (1.0f / 16777216.0f);
}

__kernel void photon_walk(__global const uint *seed, __constant float4 *layer,
                          __global float *absorbed, __global float *reflected,
                          const int max_steps, const uint n)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    uint s = seed[i] ^ 0x2545f491u;
    float z = 0.0f, uz = 1.0f, w = 1.0f, dep = 0.0f, out = 0.0f;
    int l = 0;
    for (int step = 0; step < max_steps; step++) {
        const float4 p = layer[l];
        const float mut = p.x + p.y;
        const float zb = uz > 0.0f ? (float)(l + 1) : (float)l;
        const float dist = (zb - z) / uz; /* to the boundary the photon heads for */
        if (mut == 0.0f) {
            /* a void layer (an air gap): fly straight to its boundary */
            z = zb - (uz > 0.0f ? 1e-4f : -1e-4f);
            l += uz > 0.0f ? 1 : -1;
        } else if (-log(rnd(&s)) / mut >= dist) {
            /* the free path crosses the boundary: Fresnel at normal-ish incidence */
            const int nl = l + (uz > 0.0f ? 1 : -1);
            const float n2 = nl < 0 || nl >= NLAYERS ? 1.0f : layer[nl].w;
            const float r0 = (p.w - n2) * (p.w - n2) / ((p.w + n2) * (p.w + n2));
            const float ci = fabs(uz);
            const float r = r0 + (1.0f - r0) * pown(1.0f - ci, 5);
            z = zb - (uz > 0.0f ? 1e-4f : -1e-4f);
            if (rnd(&s) < r) {
                uz = -uz;
            } else {
                l = nl;
            }
        } else {
            /* a tissue step: absorb, then Henyey-Greenstein scattering */
            const float sl = -log(rnd(&s)) / mut * 0.999f;
            z += sl * uz;
            const float dw = w * p.x / mut;
            w -= dw;
            dep += dw;
            const float g = p.z;
            const float t = (1.0f - g * g) / (1.0f - g + 2.0f * g * rnd(&s));
            const float ct = fabs(g) > 1e-3f ? (1.0f + g * g - t * t) / (2.0f * g)
                                             : 2.0f * rnd(&s) - 1.0f;
            const float st = sqrt(fmax(0.0f, 1.0f - ct * ct));
            const float phi = 6.2831853f * rnd(&s);
            const float nz = uz * ct + sqrt(fmax(0.0f, 1.0f - uz * uz)) * st * cos(phi);
            uz = fabs(nz) < 1e-4f ? 1e-4f : nz;
        }
        if (l < 0 || l >= NLAYERS) { /* escaped through the top or the bottom */
            out = l < 0 ? w : 0.0f;
            w = 0.0f;
            break;
        }
        if (w < ROULETTE_W) {
            if (rnd(&s) < ROULETTE_CHANCE) {
                w *= 1.0f / ROULETTE_CHANCE;
            } else {
                dep += w;
                w = 0.0f;
                break;
            }
        }
    }
    absorbed[i] = dep;
    reflected[i] = out;
}
