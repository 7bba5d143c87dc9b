/*
 * A filter that reads an image through a sampler argument, takes its
 * parameters as a struct by value and writes a buffer: an edge sums a
 * window of the row, other pixels keep a channel.
 */
typedef struct {
    float threshold;
    float gain;
    int radius;
    float4 weights;
} KParam;

__kernel void edge_filter(read_only image2d_t src, sampler_t smp, KParam p,
                          __global float *out, const int width)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const float4 c = read_imagef(src, smp, (int2)(x, y));
    const float4 l = read_imagef(src, smp, (int2)(x - 1, y));
    const float g = fabs(dot(c - l, p.weights));
    if (g > p.threshold) {
        float s = 0.0f;
        for (int d = -p.radius; d <= p.radius; d++)
            s += read_imagef(src, smp, (int2)(x + d, y)).x;
        out[y * width + x] = s * p.gain;
    } else if (c.z > p.gain) {
        out[y * width + x] = c.y;
    } else {
        out[y * width + x] = c.x * 0.5f;
    }
}
