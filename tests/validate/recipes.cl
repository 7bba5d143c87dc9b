// One leaf per input recipe: leaf k is reached only by items with i % 5 == k
// whose buffer holds what the recipe gives (fill, iota, range, choice, file).
__kernel void recipes(__global const int *filled, __global const uint *ids,
                      __global const float *ranged, __global const short *picked,
                      __global const int *fromfile, __global int *out)
{
    int i = get_global_id(0);
    int sel = i % 5;
    if (sel == 0 && filled[i] == 7)
        out[i] = 1;
    else if (sel == 1 && ids[i] == (uint)i)
        out[i] = 2;
    else if (sel == 2 && ranged[i] >= -3.0f && ranged[i] < -2.0f)
        out[i] = 3 + (int)(ranged[i] * 100.0f);
    else if (sel == 3 && (picked[i] == -5 || picked[i] == 9))
        out[i] = 4 + picked[i];
    else if (sel == 4 && fromfile[i] == i % 3)
        out[i] = 5 + fromfile[i];
    else
        return;
}
