/*
 * What the test programs share (user/test/lib/check.c): their verdicts,
 * one line each, and for the profiling tests a loop of known text and
 * the clock.
 */
extern int	nfail;		/* checks failed */
extern const char	*testcase;	/* what failcall names before its message, or NULL */
extern unsigned int	hz;	/* clock ticks a second, once now has run */

void	ok(const char *name);
void	fail(const char *name, const char *fmt, ...);
void	failcall(const char *what, long r);
void	failcase(const char *fmt, long a, long b);
int	forkednext(int pid, int *next);
long	argcount(const char *s, const char *usage);
void	fatal(const char *what);
unsigned long	now(void);
unsigned long long	tsc(void);
unsigned long	spinticks(unsigned long n, unsigned int chunk);
unsigned long	histsum(const unsigned short *h, unsigned long lo, unsigned long hi);
int	allzero(const void *p, unsigned long n);
int	thread(void (*fn)(int), int arg);
int	waitn(int n);
extern volatile int	tickstop;	/* startn's threads are to stop */
extern volatile int	tickstarted;	/* and have begun */
void	ticker(int i);
void	startn(void (*fn)(int), int n);
char	*heapat(unsigned long align, long n);

/*
 * spinloop(n), n > 0: count n down to 0 in a loop of two instructions.
 * Its text is [spinloop, spinend): 8 bytes starting at a 16-byte
 * boundary, so that one profil counter at scale 0x4000 covers all of it.
 */
void	spinloop(unsigned int n);
extern char	spinend[];
