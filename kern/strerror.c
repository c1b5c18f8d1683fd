/*
 * strerror: an error number's message, for the kernel's errors and
 * the C library's perror alike (kern/lib.h).
 */
#include "sys.h"
#include "lib.h"

static char *msgs[] = {
	[0]		"no error",
	[EPERM]		"operation not permitted",
	[ENOENT]	"file does not exist",
	[ESRCH]		"no such process",
	[EINTR]		"interrupted",
	[EIO]		"i/o error",
	[E2BIG]		"argument list too long",
	[ENOEXEC]	"not an executable",
	[EBADF]		"bad file descriptor",
	[ECHILD]	"no children",
	[EAGAIN]	"try again",
	[ENOMEM]	"out of memory",
	[EACCES]	"permission denied",
	[EFAULT]	"bad address",
	[EBUSY]		"device or resource busy",
	[EEXIST]	"file exists",
	[EXDEV]		"cross-device link",
	[ENOTDIR]	"not a directory",
	[EISDIR]	"is a directory",
	[EINVAL]	"invalid argument",
	[ENFILE]	"file table full",
	[EMFILE]	"too many open files",
	[EFBIG]		"file too large",
	[ENOSPC]	"no space left",
	[ESPIPE]	"illegal seek",
	[EPIPE]		"broken pipe",
	[ERANGE]	"result out of range",
	[ENAMETOOLONG]	"file name too long",
	[ENOSYS]	"no such system call",
	[ENOTEMPTY]	"directory not empty",
};

char*
strerror(int e)
{
	if(e < 0 || e >= (int)(sizeof msgs / sizeof msgs[0]) || msgs[e] == NULL)
		return "unknown error";
	return msgs[e];
}
