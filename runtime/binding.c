/* SPDX-License-Identifier: Apache-2.0 */
/*
 * binding.c - what bindings from other languages need beside the C API
 * (python/nplus1 drives sets through ctypes): the sizes of the structs they
 * mirror, so that a binding built for another layout refuses to run, and a
 * free() for the messages the runtime allocates.
 */
#include <stdlib.h>
#include <string.h>

#include "nplus1rt.h"

size_t nplus1rt_struct_size(const char *name)
{
    if (!name)
        return 0;
    if (!strcmp(name, "nplus1rt_set_desc"))
        return sizeof(nplus1rt_set_desc);
    if (!strcmp(name, "nplus1rt_arg"))
        return sizeof(nplus1rt_arg);
    if (!strcmp(name, "nplus1rt_argval"))
        return sizeof(nplus1rt_argval);
    return 0;
}

const char *nplus1rt_version(void)
{
    return NPLUS1RT_VERSION;
}

void nplus1rt_free(void *p)
{
    free(p);
}
