/* Integer types of given widths, for the i386. */
#ifndef STDINT_H
#define STDINT_H

typedef signed char		int8_t;
typedef unsigned char		uint8_t;
typedef short			int16_t;
typedef unsigned short		uint16_t;
typedef int			int32_t;
typedef unsigned int		uint32_t;
typedef long long		int64_t;
typedef unsigned long long	uint64_t;
typedef int			intptr_t;
typedef unsigned int		uintptr_t;

#define INT32_MIN	(-2147483647-1)
#define INT32_MAX	2147483647
#define UINT8_MAX	0xff
#define UINT16_MAX	0xffff
#define UINT32_MAX	0xffffffffU
#define UINT64_MAX	0xffffffffffffffffULL

#endif
