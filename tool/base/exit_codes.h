/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exit_codes.h - nplus1gen's exit statuses, a contract (docs/cli.md): 0 success,
 * 1 the input cannot be transformed (diagnostics say why), 2 a usage error, 3 an
 * internal error (a bug of nplus1gen's). Every stage and command returns these
 * names, never bare numbers; only main exits.
 */
#ifndef NPLUS1_EXIT_CODES_H
#define NPLUS1_EXIT_CODES_H

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

#endif
