#!/usr/bin/env bash
# Host unit test of the string instructions' memset, memmove and memcpy
# (user/lib/string.c, the kernel's and the C library's), under the
# address and undefined-behaviour sanitizers, 64- and 32-bit.
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

names="-Dmemset=t_memset -Dmemmove=t_memmove -Dmemcpy=t_memcpy -Dmemcmp=t_memcmp -Dstrlen=t_strlen
	-Dstrcmp=t_strcmp -Dstrncmp=t_strncmp -Dstrcpy=t_strcpy -Dstrlcpy=t_strlcpy -Dstrchr=t_strchr
	-Dstrrchr=t_strrchr -Dstrstr=t_strstr -Dstrerror=t_strerror"
for bits in 64 32; do
	san="-fsanitize=address,undefined -fno-sanitize-recover=all"
	[ $bits = 32 ] && san="-fsanitize=undefined -fno-sanitize-recover=all"
	# shellcheck disable=SC2086
	if gcc -m$bits -O2 -g -Wall -Wextra -Werror -fno-builtin $san $names -iquote user/include \
		-c -o "$T/string$bits.o" user/lib/string.c 2>"$T/build.err" &&
	   gcc -m$bits -O2 -g -Wall -Wextra -Werror $san -o "$T/stringtest$bits" \
		tools/test/stringtest.c "$T/string$bits.o" 2>>"$T/build.err"; then
		ok "build-$bits"
	else
		bad "build-$bits" "$(head -c 300 "$T/build.err")"
		continue
	fi
	"$T/stringtest$bits" >"$T/out$bits" 2>&1
	st=$?
	check "string-$bits" [ "$st" = 0 -a "$(cat "$T/out$bits")" = ok ]
	[ "$st" = 0 ] || head -5 "$T/out$bits"
done

summary string
