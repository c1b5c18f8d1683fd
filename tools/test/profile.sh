#!/usr/bin/env bash
# tools/profile fails loudly: bad options (-D with the boot's among
# them), a command the guest cannot find, and a guest that does not
# finish each exit non-zero with the reason, and leave no directory in
# /tmp; kpstack's absence and its emptiness are told apart.  (flame.sh runs it when all goes well.)
cd "$(dirname "$0")/../.." || exit 1
. tools/test/lib.bash

# left MARK: the directories tools/profile left in /tmp whose console mentions MARK.
left() {
	grep -ls -- "$1" /tmp/profile.*/console.txt | wc -l
}

mark=nosuch$$x$RANDOM
for bad in "-p 0" "-p 9" "-t x" "-t 0" "-z"; do
	# shellcheck disable=SC2086
	tools/profile $bad "echo $mark" >"$T/out" 2>&1
	st=$?
	check "options${bad// /}-status" [ "$st" = 2 ]
	check "options${bad// /}-says" grep -qE "^tools/profile: |^usage: tools/profile" "$T/out"
done
check options-no-boot [ "$(left "$mark")" = 0 ]

tools/profile "$mark" >"$T/out" 2>&1
st=$?
check notfound-status [ "$st" = 1 ]
check notfound-guest-says grep -qx "sh: $mark: not found" "$T/out"
check notfound-says grep -qx "tools/profile: the commands failed, status 1 (the guest's reason is above)" "$T/out"
check notfound-no-kpstack-claim [ "$(grep -c kpstack "$T/out")" = 0 ]
check notfound-nothing-left [ "$(left "$mark")" = 0 ]

# One second, the least -t takes: under -d the guest spins at full
# speed until it is killed, and each second costs the host one of CPU.
tools/profile -t 1 "echo $mark; spin 100" >"$T/out" 2>&1
st=$?
check unfinished-status [ "$st" = 1 ]
check unfinished-says grep -qx "tools/profile: the guest did not finish in 1 s (-t): killed" "$T/out"
check unfinished-nothing-left [ "$(left "$mark")" = 0 ]

tools/profile -a hz=5 "echo $mark" >"$T/out" 2>&1
st=$?
check runqemu-refuses-status [ "$st" = 1 ]
check runqemu-refuses-says grep -q "^run-qemu.sh: -a hz=5: hz must be" "$T/out"

# A command so short that perhaps no tick finds the kernel: kpstack
# comes home, empty or not, and an empty one is said to be empty, not
# unsent; the profile is made either way.
tools/profile -p 1 "echo $mark" "$T/p" >"$T/out" 2>&1
st=$?
check short-status [ "$st" = 0 -a "$(tail -1 "$T/out")" = "$T/p" ]
check short-kpstack-came [ -e "$T/p/kpstack" -a -s "$T/p/profile.txt" ]
check short-not-unsent [ "$(grep -c "sent no" "$T/out")" = 0 ]
if [ -s "$T/p/kpstack" ]; then
	check short-stacks [ -s "$T/p/stacks.txt" -a "$(grep -c 'kpstack is empty' "$T/out")" = 0 ]
else
	check short-empty-said grep -qx "tools/profile: kpstack is empty, no tick found the kernel: no stacks, no flame graph" "$T/out"
fi

# -D compares two such directories and boots nothing, so the boot's
# options are refused (status 2), not ignored.
for bad in "-x" "-q" "-p 1" "-t 5"; do
	# shellcheck disable=SC2086
	tools/profile $bad -D "$T/p" "$T/p" >"$T/out" 2>&1
	st=$?
	check "diff${bad// /}-refused" [ "$st" = 2 -a ! -e "$T/p/diff.html" ]
done

summary profile
