#!/usr/bin/env bash
# Host unit tests of grep's regular expressions (user/lib/regexp.c),
# plain and under ASan/UBSan: each operator, anchors, escapes, bad
# patterns, and a pattern that would make a backtracking matcher take
# exponential time.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

hostbuild regexptest regexp
cd "$T" || exit 1

want '1\n0\n1\n'
expect literal 0 abc xxabcxx ab abc
want '1\n1\n0\n'
expect dot 0 a.c abc axc ac
want '1\n1\n1\n0\n'
expect star 0 'ab*c' ac abc abbbbc abxc
want '1\n1\n'
expect star-empty 0 'x*' '' yyy
want '1\n0\n'
expect dot-star 0 'a.*z' 'a then z' 'z then a'
want '1\n0\n'
expect bol 0 '^ab' abc cab
want '1\n0\n'
expect eol 0 'bc$' abc bca
want '1\n0\n0\n'
expect both-anchors 0 '^a*$' aaa aab ba
want '1\n'
expect empty-pattern 0 '' anything
want '1\n0\n'
expect escape-dot 0 'a\.c' a.c abc
want '1\n0\n'
expect escape-star 0 'a\*' 'a*' aa
want '1\n0\n'
expect escape-dollar 0 'a\$' 'a$' a
want '1\n'
expect dollar-inside 0 'a$b' 'a$b'
want '1\n'
expect caret-inside 0 'a^b' 'a^b'
want '0\n'
expect no-backtracking 0 'a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*c' \
	aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab
want '' '* with nothing before it\n'
expect bad-star 1 '*a' x
want '' '* with nothing before it\n'
expect bad-star-after-caret 1 '^*' x
want '' '\\ at the end of the pattern\n'
expect bad-backslash 1 'a\' x

cd - >/dev/null || exit 1
summary regexp
