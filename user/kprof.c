/*
 * kprof: format the kernel profile (kprof(1)).
 *
 *	kprof [-h hz] kernel kpdata
 *	kprof -s [-u prog] kernel kpstack [kpdata]
 *	kprof -g [-u prog] kernel kpstack [kpdata]
 *	kprof -i [-u prog] kernel kpdata kpstack
 *	kprof -t function [-u prog] kernel kpstack [kpdata]
 *	kprof -c [-x sym]... kernel exact sampled
 *	kprof -p [-h hz] [-u prog] kernel kpdata [kpstack]	(on the host)
 *	kprof -a function kernel kpdata		(on the host)
 *	kprof -D kernel before.kpdata after.kpdata	(on the host)
 *	kprof -P kpproc
 *	kprof -q kernel kpgmon [function]
 *
 * kpdata (kprof(3), kern/kprof.h) counts the clock ticks in each 8-byte
 * bin of kernel text.  kprof credits each bin to the function whose
 * text holds it and prints one line per function, busiest first, in
 * Plan 9's layout:
 *
 *	total: 1234	in kernel text: 1000	outside kernel text: 234
 *	KTZERO c0100000	HZ 100
 *	ms	  %	sym
 *	5000	 50.0	idle
 *
 * The clock rate comes from -h, else from the kpctl status line beside
 * kpdata (or /dev/kpctl); with neither, kprof says so and prints ticks
 * rather than guess.  kpstack holds the call stacks, the kernel's and
 * below them the user's: -s prints them folded, a line each, and -g
 * draws them as an SVG flame graph; -i prints each function's self and
 * inclusive ticks, and -t a function's callers and callees.  -u names
 * the user frames by the symbols of prog, which ran; without it they
 * are addresses.
 * -c holds a profile against an exact count of instructions in
 * kpdata's form, with the error that sampling alone makes; -x leaves a
 * function out of both.  On the host only, -p writes the profile, or with
 * kpstack its stacks, in pprof's format (tools/kpprof.c), -a prints a
 * function's instructions with their ticks (tools/annotate.c), and -D
 * two profiles' difference (tools/kpdiff.c).  -P prints kpproc's ticks
 * by process, busiest first, with no kernel needed.  -q prints the
 * kernel's call graph from kpgmon, a gmon.out: each function with its
 * callers and callees and the calls between them (user/lib/callgraph.c),
 * or only the function named.
 *
 * This is a front end: the work is the formatters' library, user/lib
 * (elfsym.c, kpdata.c, kpcmp.c, kpstack.c, kpcum.c, flame.c, gmonread.c,
 * callgraph.c), which prof and the
 * host's tools share.  The same source builds for the guest and for
 * the host, o/host/kprof.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfsym.h"
#include "kpdata.h"
#include "kpproc.h"
#include "kpstack.h"
#include "gmon.h"
#if __STDC_HOSTED__
#include "pprof.h"
#endif

static void
usage(void)
{
	fprintf(stderr, "usage: kprof [-h hz] kernel kpdata\n"
		"       kprof -s|-g [-u prog] kernel kpstack [kpdata]\n"
		"       kprof -i [-u prog] kernel kpdata kpstack\n"
		"       kprof -t function [-u prog] kernel kpstack [kpdata]\n"
		"       kprof -c [-x sym]... kernel exact sampled\n"
		"       kprof -p [-h hz] [-u prog] kernel kpdata [kpstack] >kernel.pb.gz\n"
		"       kprof -a function kernel kpdata\n"
		"       kprof -D kernel before.kpdata after.kpdata\n"
		"       kprof -P kpproc\n"
		"       kprof -q kernel kpgmon [function]\n");
	exit(1);
}

/* -s, -g, -i and -t: the stacks in kpstack, user frames named by u, checked against kpdata if given. */
static void
stacks(Symtab *k, Symtab *u, int mode, const char *fn, const char *kpstack, const char *kpdata)
{
	Stacks st;
	uint32_t *cell;

	stackload(&st, k, u, kpstack);
	if(kpdata != NULL){
		cell = kpread(kpdata, kpnbins(k));
		stackcheck(&st, kpstack, cell, kpdata);
		free(cell);
	}
	if(mode == 's')
		stackprint(&st);
	else if(mode == 'i')
		stackincl(&st);
	else if(mode == 't')
		stackpeek(&st, fn);
	else if(st.total == 0)
		fatal("%s: no ticks to draw", kpstack);
	else
		flamegraph(&st);
	stackfree(&st);
}

#if __STDC_HOSTED__
/* The host's options, -p, -a and -D, on the files in arg. */
static void
hostonly(Symtab *k, Symtab *u, int mode, char **arg, int narg, unsigned long hz, const char *fn)
{
	Stacks st;
	uint32_t *cell, *after;

	cell = kpread(arg[0], kpnbins(k));
	switch(mode){
	case 'p':
		hz = kpclock(k, arg[0], hz);
		if(hz == 0)
			fatal("-p: %s: no clock rate beside it: give it with -h", arg[0]);
		if(narg == 2){
			stackload(&st, k, u, arg[1]);
			stackcheck(&st, arg[1], cell, arg[0]);
		}
		kpprof(k, cell, kpnbins(k), hz, narg == 2 ? &st : NULL, kpclockdesc());
		if(narg == 2)
			stackfree(&st);
		break;
	case 'a':
		annotate(k, cell, kpnbins(k), fn);
		break;
	case 'D':
		after = kpread(arg[1], kpnbins(k));
		kpdiff(k, cell, after, kpnbins(k));
		free(after);
		break;
	}
	free(cell);
}
#endif

int
main(int argc, char *argv[])
{
	Symtab k, u;
	Gmon g;
	uint32_t *cell;
	unsigned long hz;
	const char *arg, *err, *fn, *prog;
	char **omit;
	int i, mode, nomit, flag;

	argv0 = "kprof";
	hz = 0;
	mode = 0;
	if(argc == 3 && strcmp(argv[1], "-P") == 0){
		kpprocprint(argv[2]);
		return 0;
	}
	fn = NULL;
	prog = NULL;
	omit = malloc(argc * sizeof omit[0]);
	if(omit == NULL)
		fatal("out of memory");
	nomit = 0;
	for(i = 1; i < argc && argv[i][0] == '-'; i++){
		if(strcmp(argv[i], "--") == 0){
			i++;
			break;
		}
		if(strcmp(argv[i], "-s") == 0 || strcmp(argv[i], "-g") == 0 || strcmp(argv[i], "-c") == 0
		|| strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-D") == 0 || strcmp(argv[i], "-i") == 0
		|| strcmp(argv[i], "-q") == 0){
			if(mode != 0)
				usage();
			mode = argv[i][1];
			continue;
		}
		if(strcmp(argv[i], "-a") == 0 || strcmp(argv[i], "-t") == 0){
			if(mode != 0 || i+1 >= argc)
				usage();
			mode = argv[i][1];
			fn = argv[++i];
			continue;
		}
		flag = argv[i][1];
		if(flag != 'h' && flag != 'x' && flag != 'u')
			usage();
		if((arg = flagarg(argc, argv, &i)) == NULL)
			usage();
		if(flag == 'x'){
			omit[nomit++] = (char*)arg;
			continue;
		}
		if(flag == 'u'){
			if(prog != NULL)
				usage();
			prog = arg;
			continue;
		}
		hz = kpparsehz(arg);
		if(hz == 0)
			fatal("bad hz: %s", arg);
	}
	if(nomit > 0 && mode != 'c')
		usage();
	if(prog != NULL && mode != 's' && mode != 'g' && mode != 'i' && mode != 't' && mode != 'p')
		usage();
	if(hz != 0 && mode != 0 && mode != 'p')
		usage();
	if(mode == 's' || mode == 'g' || mode == 't' || mode == 'q'){
		if(argc - i < 2 || argc - i > 3)
			usage();
	}else if(mode == 'i' || mode == 'c'){
		if(argc - i != 3)
			usage();
	}else if(mode == 'D'){
		if(argc - i != 3)
			usage();
	}else if(argc - i != 2 && !(mode == 'p' && argc - i == 3))
		usage();
#if !__STDC_HOSTED__
	if(mode == 'p' || mode == 'a' || mode == 'D')
		fatal("-%c%s%s: only the host's kprof has it", mode, fn != NULL ? " " : "", fn != NULL ? fn : "");
#endif

	if((err = symload(&k, argv[i])) != NULL)
		fatal("%s", err);
	if(prog != NULL && (err = symload(&u, prog)) != NULL)
		fatal("%s", err);
	switch(mode){
	case 's':
	case 'g':
	case 't':
		stacks(&k, prog != NULL ? &u : NULL, mode, fn, argv[i+1], argc - i == 3 ? argv[i+2] : NULL);
		break;
	case 'i':
		stacks(&k, prog != NULL ? &u : NULL, mode, fn, argv[i+2], argv[i+1]);
		break;
	case 'c':
		kpcompare(&k, argv[i+1], argv[i+2], omit, nomit);
		break;
	case 'q':
		gmonload(&g, &k, argv[i+1]);
		callgraph(&k, &g, argc - i == 3 ? argv[i+2] : NULL);
		gmonfree(&g);
		break;
#if __STDC_HOSTED__
	case 'p':
	case 'a':
	case 'D':
		hostonly(&k, prog != NULL ? &u : NULL, mode, argv + i + 1, argc - i - 1, hz, fn);
		break;
#endif
	default:
		cell = kpread(argv[i+1], kpnbins(&k));
		kpflat(&k, cell, kpclock(&k, argv[i+1], hz));
		free(cell);
	}
	free(omit);
	if(prog != NULL)
		symfree(&u);
	symfree(&k);
	return 0;
}
