/*
 * Reading a POSIX ustar archive, the boot file system's format.  Kept
 * free of kernel types so that the host unit tests compile it too.
 */
typedef struct Tarent Tarent;
struct Tarent {
	char		name[257];	/* prefix/name (155+1+100), without a leading "./" */
	int		dir;		/* a directory, not a file */
	const unsigned char	*data;	/* the file's bytes, inside the archive */
	unsigned int	size;
};

/*
 * The entry at *off in the archive of len bytes: 1 and *off moved past
 * it, 0 at the archive's end marker, -1 if the archive is malformed
 * or ends without one.
 */
int	tarnext(const unsigned char *a, unsigned int len, unsigned int *off, Tarent *e);
