// main_cpp.cpp - the generated driver headers used from C++: they must
// compile as C++ and declare the driver with C linkage (extern "C"), or
// this file's calls would not link against the C-compiled drivers.
#include "physics_nplus1.h"
#include "shade_nplus1.h"

extern "C" unsigned consumer_cpp_leaf_kernels(void);

unsigned consumer_cpp_leaf_kernels(void)
{
    // Take the address of every entry point, so each must link.
    auto create = &nplus1_shade_create;
    auto create_ex = &nplus1_shade_create_ex;
    auto enqueue = &nplus1_shade_enqueue;
    auto release = &nplus1_shade_release;
    auto counts = &nplus1_shade_last_counts;
    auto errmsg = &nplus1_shade_errmsg;
    auto desc = &nplus1_shade_desc;
    auto cond = &nplus1_shade_leaf_condition;
    auto physics_enqueue = &nplus1_physics_enqueue;
    if (!create || !create_ex || !enqueue || !release || !counts || !errmsg || !desc ||
        !physics_enqueue || !cond(0) || !nplus1_strerror(CL_SUCCESS))
        return 0;
    return nplus1_shade_leaf_count() + nplus1_physics_leaf_count();
}
