#!/usr/bin/env python3
"""Compresses what `sfu_probe collect RAWDIR` wrote into at most MAX_TARS tar files of at most LIMIT bytes each
(the GPU machine returns at most 8 files of < 16 MiB). Members are LZMA-compressed (.xz); 16-bit tables go first,
then slices in slice_order.txt order (most important first); whatever does not fit is listed as dropped.
usage: pack.py RAWDIR OUTDIR [FIRST]   (tar files are numbered from FIRST, default 1)"""
import lzma, os, sys, tarfile, io
from concurrent.futures import ProcessPoolExecutor

LIMIT = 15 * 1024 * 1024
MAX_TARS = 6

def compress(path):
    with open(path, 'rb') as f:
        return os.path.basename(path), lzma.compress(f.read(), preset=6)

def main():
    raw, out = sys.argv[1], sys.argv[2]
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    os.makedirs(out, exist_ok=True)
    tables = sorted(f for f in os.listdir(raw) if f.startswith('t16'))
    with open(os.path.join(raw, 'slice_order.txt')) as f:
        slices = [l.strip() for l in f if l.strip()]
    names = tables + slices
    tars, cur, cur_size, dropped, kept = [], None, 0, [], 0
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as ex:
        for name, blob in ex.map(compress, [os.path.join(raw, n) for n in names]):
            if cur is None or cur_size + len(blob) + 1024 > LIMIT:
                if cur is not None:
                    cur.close()
                if len(tars) == MAX_TARS or len(blob) + 1024 > LIMIT:
                    cur = None
                    dropped.append(name)
                    continue
                tars.append(os.path.join(out, 'sfu_data_%d.tar' % (len(tars) + first)))
                cur, cur_size = tarfile.open(tars[-1], 'w'), 0
            info = tarfile.TarInfo(name + '.xz')
            info.size = len(blob)
            cur.addfile(info, io.BytesIO(blob))
            cur_size += len(blob) + 1024
            kept += 1
    if cur is not None:
        cur.close()
    print('packed %d members into %d tar files (%s); dropped %d: %s' % (
        kept, len(tars), ', '.join('%s %.1f MiB' % (os.path.basename(t), os.path.getsize(t) / 2**20) for t in tars),
        len(dropped), ' '.join(dropped)))

if __name__ == '__main__':
    main()
