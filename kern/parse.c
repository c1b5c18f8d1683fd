/*
 * Control messages and numbers, as Plan 9's parsecmd and lookupcmd:
 * every control file copies its message in with parsecmd, which splits
 * it into words, and finds it in a table of the messages it takes
 * (a Cmdtab, each with its number of words) with lookupcmd.  decimal
 * is the one number parser, for the messages' numbers and the kernel
 * command line's.
 */
#include "u.h"
#include "mem.h"
#include "dat.h"
#include "fns.h"

static int
isblank(int c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * Split s in place into its words, separated by blanks, into f: the
 * number of words, or -1 if there are more than nf.
 */
int
tokenize(char *s, char **f, int nf)
{
	int n = 0;

	for(;;){
		while(isblank(*s))
			s++;
		if(*s == '\0')
			return n;
		if(n == nf)
			return -1;
		f[n++] = s;
		while(*s != '\0' && !isblank(*s))
			s++;
		if(*s != '\0')
			*s++ = '\0';
	}
}

/*
 * Copy in the n bytes of a control message at buf (a user address
 * the system call has checked) and split it into words.  A NUL is no
 * end: "stop\0start" is not stop, so a message holding one is refused.
 */
int
parsecmd(Cmdbuf *cb, void *buf, long n)
{
	if(n < 0 || n >= (long)sizeof cb->buf)
		return seterr(EINVAL, "bad control message");
	memmove(cb->buf, buf, n);
	cb->buf[n] = '\0';
	if(memchr(cb->buf, '\0', n) != nil || (cb->nf = tokenize(cb->buf, cb->f, nelem(cb->f))) <= 0)
		return seterr(EINVAL, "bad control message");
	return 0;
}

/*
 * The entry of tab whose message cb is: its first word, and as many
 * words in all as the entry's narg (any number for 0).  nil, with the
 * error, for a message the file does not take.
 */
Cmdtab*
lookupcmd(Cmdbuf *cb, Cmdtab *tab, int ntab)
{
	int i;

	for(i = 0; i < ntab; i++)
		if(strcmp(tab[i].cmd, cb->f[0]) == 0 && (tab[i].narg == 0 || tab[i].narg == cb->nf))
			return &tab[i];
	seterr(EINVAL, "bad control message");
	return nil;
}

/*
 * The decimal number that is the whole of s, in *v, if it is no more
 * than max: 0; -1 for an empty string, any other character, or a
 * number over max (however many digits).
 */
int
decimal(char *s, uint max, uint *v)
{
	uint n = 0, d;
	char *p;

	for(p = s; *p >= '0' && *p <= '9'; p++){
		d = *p - '0';
		if(n > max/10 || d > max - n*10)
			return -1;
		n = n*10 + d;
	}
	if(p == s || *p != '\0')
		return -1;
	*v = n;
	return 0;
}
