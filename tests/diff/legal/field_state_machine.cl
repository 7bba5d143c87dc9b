// Stores to one field of the item's own element, then conditions (and a loop
// in the slice) that read other fields: field-sensitive memory order. A
// counter field (rayCount) is bumped through a pointer to the element before
// the state field is tested, a field that is an array (stats[]) is written
// before a scalar field is read, and 'fraction' is set before a loop that
// reads 'result2' of the same element.
typedef struct sample {
    int state;
    uint rayCount;
    float t;
    uint stats[2];
    float fraction;
    int result2;
} sample;

__kernel void advance(__global sample *samples, __global float *out, int n)
{
    const int i = get_global_id(0);
    __global sample *s = &samples[i];
    s->rayCount += 1;
    s->stats[1] = 0u;
    samples[i].fraction = 1.f;
    int found = 0;
    for (int b = 0; b < n; b++) {
        if (samples[i].result2 == b)
            continue;
        found++;
    }
    if ((s->state & 3) == 0)
        out[i] = s->t;
    else if ((s->state & 3) == 1 && found > 2)
        out[i] = 2.0f * s->t;
    else
        out[i] = (float)found;
}
