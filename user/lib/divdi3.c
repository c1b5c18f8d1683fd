/*
 * 64-bit division for the i386, which has no such instruction: gcc
 * calls these helpers (normally from libgcc) for / and % on long long.
 */
typedef unsigned long long uvlong;
typedef long long vlong;

uvlong	__udivmoddi4(uvlong, uvlong, uvlong*);
vlong	__divmoddi4(vlong, vlong, vlong*);
uvlong	__udivdi3(uvlong, uvlong);
uvlong	__umoddi3(uvlong, uvlong);
vlong	__divdi3(vlong, vlong);
vlong	__moddi3(vlong, vlong);

/* Long division, one bit at a time; a zero divisor gives 0 remainder n. */
uvlong
__udivmoddi4(uvlong n, uvlong d, uvlong *rem)
{
	uvlong q = 0, r = 0;
	int i;

	if(d == 0){
		if(rem)
			*rem = n;
		return 0;
	}
	for(i = 63; i >= 0; i--){
		r = r << 1 | (n >> i & 1);
		if(r >= d){
			r -= d;
			q |= 1ULL << i;
		}
	}
	if(rem)
		*rem = r;
	return q;
}

/* Signed: the quotient rounds toward zero, the remainder has n's sign. */
vlong
__divmoddi4(vlong n, vlong d, vlong *rem)
{
	uvlong un, ud, q, r;

	un = n < 0 ? -(uvlong)n : (uvlong)n;
	ud = d < 0 ? -(uvlong)d : (uvlong)d;
	q = __udivmoddi4(un, ud, &r);
	if(rem)
		*rem = n < 0 ? -(vlong)r : (vlong)r;
	return (n < 0) != (d < 0) ? -(vlong)q : (vlong)q;
}

uvlong
__udivdi3(uvlong n, uvlong d)
{
	return __udivmoddi4(n, d, 0);
}

uvlong
__umoddi3(uvlong n, uvlong d)
{
	uvlong r;

	__udivmoddi4(n, d, &r);
	return r;
}

vlong
__divdi3(vlong n, vlong d)
{
	return __divmoddi4(n, d, 0);
}

vlong
__moddi3(vlong n, vlong d)
{
	vlong r;

	__divmoddi4(n, d, &r);
	return r;
}
