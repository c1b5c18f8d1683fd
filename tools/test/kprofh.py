# kpdata's and kpstack's forms for the tests' Python, from the headers
# that define them for the kernel and the formatters (kern/kprof.h, and
# kern/sys.h for UTZERO, where programs are linked and the exact count's
# user bins start): K holds each `KPNAME = value,' of kprof.h's enum.
import os, re

_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../kern')
_hdr = open(os.path.join(_dir, 'kprof.h')).read()
K = {}
for name, val in re.findall(r'^\s*(KP[A-Z0-9]+)\s*=\s*([^,]+),', _hdr, re.M):
	K[name] = eval(val, {}, dict(K))
UMARK = int(re.search(r'#define\s+KPUMARK\s+0x([0-9A-Fa-f]+)', _hdr).group(1), 16)
UTZERO = int(re.search(r'#define\s+UTZERO\s+0x([0-9A-Fa-f]+)', open(os.path.join(_dir, 'sys.h')).read()).group(1), 16)
