/*
 * malloc and free, as in K&R: a circular list of free blocks, sorted by
 * address, each headed by its size in header units.  malloc takes the
 * first block big enough; free puts a block back and merges it with
 * its neighbours.  More memory comes from sbrk.  One lock keeps the
 * list whole while several threads (rfork(2)) allocate at once.
 */
#include <stddef.h>
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "unistd.h"
#include "lock.h"

typedef union Header Header;
union Header {
	struct {
		Header	*next;	/* next free block, by address */
		size_t	size;	/* of this block, in Headers, with this one */
	} s;
	long long	align;	/* forces alignment of blocks */
};

#define NALLOC	1024	/* least number of Headers to ask sbrk for */

static Header base;		/* an empty block that starts the list */
static Header *freep;		/* where the last search ended */
static Lock mlock;		/* base and freep, and the list */

static void	free1(void*);

/* Get at least nu more Headers from the kernel and free them into the list. */
static Header*
morecore(size_t nu)
{
	Header *h;
	void *p;

	if(nu < NALLOC)
		nu = NALLOC;
	if(nu > 0x7fffffff / sizeof(Header))
		return NULL;
	p = sbrk(nu * sizeof(Header));
	if(p == (void*)-1)
		return NULL;
	h = p;
	h->s.size = nu;
	free1(h + 1);
	return freep;
}

/* malloc with mlock held */
static void*
malloc1(size_t n)
{
	Header *p, *prev;
	size_t nu;

	if(n > 0x7fffffff){
		errno = ENOMEM;
		return NULL;
	}
	nu = (n + sizeof(Header) - 1) / sizeof(Header) + 1;
	if(freep == NULL){
		base.s.next = freep = &base;
		base.s.size = 0;
	}
	prev = freep;
	for(p = prev->s.next;; prev = p, p = p->s.next){
		if(p->s.size >= nu){
			if(p->s.size == nu)
				prev->s.next = p->s.next;
			else{
				p->s.size -= nu;
				p += p->s.size;
				p->s.size = nu;
			}
			freep = prev;
			return p + 1;
		}
		if(p == freep && (p = morecore(nu)) == NULL){
			errno = ENOMEM;
			return NULL;
		}
	}
}

void*
malloc(size_t n)
{
	void *p;

	lock(&mlock);
	p = malloc1(n);
	unlock(&mlock);
	return p;
}

/* free with mlock held */
static void
free1(void *ap)
{
	Header *h, *p;

	if(ap == NULL)
		return;
	h = (Header*)ap - 1;
	for(p = freep; !(h > p && h < p->s.next); p = p->s.next)
		if(p >= p->s.next && (h > p || h < p->s.next))
			break;
	if(h + h->s.size == p->s.next){
		h->s.size += p->s.next->s.size;
		h->s.next = p->s.next->s.next;
	}else
		h->s.next = p->s.next;
	if(p + p->s.size == h){
		p->s.size += h->s.size;
		p->s.next = h->s.next;
	}else
		p->s.next = h;
	freep = p;
}

void
free(void *ap)
{
	lock(&mlock);
	free1(ap);
	unlock(&mlock);
}

void*
realloc(void *ap, size_t n)
{
	Header *h;
	size_t have;
	void *np;

	if(ap == NULL)
		return malloc(n);
	h = (Header*)ap - 1;
	have = (h->s.size - 1) * sizeof(Header);
	if(n <= have)
		return ap;
	np = malloc(n);
	if(np == NULL)
		return NULL;
	memmove(np, ap, have);
	free(ap);
	return np;
}

void*
calloc(size_t nmemb, size_t size)
{
	void *p;

	if(size != 0 && nmemb > 0x7fffffff / size){
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(nmemb * size);
	if(p != NULL)
		memset(p, 0, nmemb * size);
	return p;
}
