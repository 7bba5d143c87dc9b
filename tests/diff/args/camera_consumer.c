/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program that uses the generated driver of ray_camera.cl as a user would:
 * it fills the host struct of the Camera argument field by field and passes
 * it with its size. Compiled (not run) with -Wall -Wextra -Werror.
 */
#include "ray_camera_nplus1.h"

cl_int render(nplus1_generate_rays *s, cl_command_queue q, cl_mem jitter, cl_mem dirs,
              cl_mem kind);

cl_int render(nplus1_generate_rays *s, cl_command_queue q, cl_mem jitter, cl_mem dirs,
              cl_mem kind)
{
    struct nplus1_Camera cam = {0};
    cam.origin.s[1] = 1.0f;
    cam.forward.s[2] = 1.0f;
    cam.right.s[0] = 1.0f;
    cam.up.s[1] = 1.0f;
    cam.fov.s[0] = 0.8f;
    cam.fov.s[1] = 0.6f;
    cam.width = 64;
    cam.height = 48;
    cam.clip.near_clip = 0.05f;
    cam.clip.far_clip = 4.0f;
    cam.clip.max_steps = 6;
    cam.weights[0] = cam.weights[1] = cam.weights[2] = 1.0f;
    const size_t global[2] = {64, 48};
    return nplus1_generate_rays_enqueue(s, q, 2, NULL, global, NULL, &cam, sizeof cam, jitter,
                                        dirs, kind);
}
