/*
 * A ray generator whose camera arrives as a struct by value: vectors, a
 * nested struct and an array inside. Each pixel's ray goes to the sky, to
 * the ground (near or far) or, close to the horizon, through a short march.
 */
typedef struct {
    float near_clip;
    float far_clip;
    int max_steps;
} Clip;

typedef struct {
    float4 origin;
    float4 forward, right, up;
    float2 fov;                 /* tangents of the half angles */
    int width, height;
    Clip clip;
    float weights[3];
} Camera;

__kernel void generate_rays(Camera cam, __global const float *jitter, __global float4 *dirs,
                            __global int *kind)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= cam.width || y >= cam.height)
        return;
    const int i = y * cam.width + x;
    const float u = (2.0f * (x + jitter[i]) / cam.width - 1.0f) * cam.fov.x;
    const float v = (1.0f - 2.0f * (y + jitter[i]) / cam.height) * cam.fov.y;
    const float4 d = normalize(cam.forward + u * cam.right + v * cam.up);
    if (d.y > cam.clip.near_clip) {
        dirs[i] = d * cam.weights[0];
        kind[i] = 0;
    } else if (d.y < -cam.clip.near_clip) {
        const float t = -cam.origin.y / d.y;
        dirs[i] = (float4)(cam.origin.xyz + t * d.xyz, t);
        kind[i] = t > cam.clip.far_clip ? 2 : 1;
    } else {
        float4 p = cam.origin;
        int s = 0;
        while (s < cam.clip.max_steps && p.y > 0.0f) {
            p += d * cam.weights[1];
            s++;
        }
        dirs[i] = p * cam.weights[2];
        kind[i] = 3 + s;
    }
}
