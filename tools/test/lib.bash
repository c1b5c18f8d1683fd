# Shared by the test scripts: counting, and booting the guest.
# A script sources this, runs its cases, and ends with `summary NAME`.

pass=0
fail=0
T=$(mktemp -d /tmp/kproftest.XXXXXX)
trap 'rm -rf "$T"' EXIT

ok() {
	echo "ok $1"
	pass=$((pass + 1))
}

bad() {
	echo "FAIL $1: $2"
	fail=$((fail + 1))
}

# check NAME COMMAND...: the case passes if the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else bad "$name" "$*"; fi
}

summary() {
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# guest ARGS...: boot with ./run-qemu.sh -k ARGS; the console (without
# carriage returns) is left in $out, the exit status in $st.
guest() {
	./run-qemu.sh -k "$@" >"$T/console" 2>&1
	st=$?
	out=$(tr -d '\r\0' <"$T/console")
}

# has NAME REGEX: the last guest's console has a line matching REGEX.
has() {
	if grep -qE -- "$2" <<<"$out"; then
		ok "$1"
	else
		bad "$1" "no line matching /$2/ in:"
		sed 's/^/	| /' <<<"$out" | tail -20
	fi
}

# hasnt NAME REGEX: no line of the last guest's console matches REGEX.
hasnt() {
	if grep -qE -- "$2" <<<"$out"; then
		bad "$1" "a line matches /$2/"
		grep -E -- "$2" <<<"$out" | sed 's/^/	| /' | head -5
	else
		ok "$1"
	fi
}

# hostbuild NAME SUITE SOURCES...: build o/host/NAME, and o/host/NAME-san
# with the address and undefined-behaviour sanitizers (which make a
# failing case exit 86); without them SUITE cannot run, and ends here.
hostbuild() {
	local name=$1 suite=$2
	shift 2
	export ASAN_OPTIONS=exitcode=86 UBSAN_OPTIONS=exitcode=86:print_stacktrace=1
	mkdir -p o/host
	if gcc -O2 -g -Wall -Wextra -Werror -iquote user/include -o "o/host/$name" "$@" 2>"$T/build.err" &&
	   gcc -O1 -g -Wall -Wextra -Werror -iquote user/include -fsanitize=address,undefined \
		-fno-sanitize-recover=all -fno-omit-frame-pointer -o "o/host/$name-san" "$@" 2>>"$T/build.err"; then
		ok "build-$name"
	else
		bad "build-$name" "$(head -c 300 "$T/build.err")"
		summary "$suite"
		exit 1
	fi
}
