// RUN: nplus1gen %s --validate --global 4096 --arg tasks.state=0 --strategy aggregated,atomic --split always
// RUN: nplus1gen %s --validate --global 4096 --strategy aggregated --split always
// EXPECT: match
/*
 * path_state_enum_after_counter.cl - regression (issue 26, item 7): the
 * opening of LuxCore's AdvancePaths_MK_RT_NEXT_VERTEX
 * (pathoclbase_kernels_micro.cl): `sampleResult->rayCount += 1` (a float of
 * SampleResult), then `PathState pathState = taskState->state` (an enum of
 * GPUTaskState) decides, then a copy of the whole Seed (a struct of uints)
 * and rayHits[gid].meshIndex (a uint of RayHit). An enum was never told apart
 * from another type, nor a whole struct. An enum is compatible with its
 * integer type (C11 6.7.2.2p4), and an aggregate may read an object only
 * through a member of its type (C11 6.5p7): neither can read the float the
 * kernel stored, so the kernel splits. (The real kernel stays refused: its
 * condition needs Scene_Intersect, which writes the ray hit and the volume
 * state in global memory, and the classifier would run it twice.)
 */
typedef enum { MK_RT_NEXT_VERTEX = 0, MK_HIT_NOTHING = 1, MK_HIT_OBJECT = 2 } PathState;

typedef struct {
    float rayCount;
    float radiance;
} SampleResult;

typedef struct {
    uint s1, s2, s3;
} Seed;

typedef struct {
    PathState state;
    float throughput;
    Seed seedPassThroughEvent;
} GPUTaskState;

typedef struct {
    float t;
    uint meshIndex;
} RayHit;

#define NULL_INDEX 0xffffffffu

__kernel void advance_like(__global SampleResult *samples, __global GPUTaskState *tasks,
                           __global const RayHit *rayHits)
{
    const size_t gid = get_global_id(0);
    __global SampleResult *sampleResult = &samples[gid];
    sampleResult->rayCount += 1;
    __global GPUTaskState *taskState = &tasks[gid];
    PathState pathState = taskState->state;
    if (pathState != MK_RT_NEXT_VERTEX)
        return;
    Seed seed = taskState->seedPassThroughEvent;
    const uint pass = (seed.s1 * 1664525u + seed.s2) ^ seed.s3;
    if (rayHits[gid].meshIndex % 4u == 0u || (pass & 15u) == 3u) {
        taskState->state = MK_HIT_NOTHING;
    } else {
        sampleResult->radiance += taskState->throughput * (float)(rayHits[gid].meshIndex & 7u);
        taskState->state = MK_HIT_OBJECT;
    }
}
