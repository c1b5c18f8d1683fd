#!/usr/bin/env bash
# Host unit tests of the formatter the kernel and the C library share,
# kern/fmt.c: every case against the host's snprintf, under both host
# builds (plain and sanitized).
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

hostbuild fmttest fmt
cd "$T" || exit 1
want ''
expect ints 0 ints
expect alt-inside-width 0 alt
expect strings 0 strings
expect truncation 0 trunc
want '' 'fmttest: unknown group x\n'
expect bad-group 2 x

summary fmt
