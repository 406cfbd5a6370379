"""An independent reference move generator for international draughts.

Written from RULES.md with (row, column) coordinates and plain recursion, sharing
nothing with the C++ bitboard generator, so that the two can check each other:
tests/cli/movegen_crosscheck.sh compares them on random positions.
Usage: movegen_ref.py FEN              the legal moves, one per line, as `dtb moves` prints them.
       movegen_ref.py --random N SEED  N random positions, one line each: FEN, a tab, and its
                                       legal moves sorted and joined by spaces.
"""
import random
import sys


def sq_rc(s):
    """Row and column (1..10) of square s: row 1 holds 1-5 in columns 2,4,..,10."""
    r = (s - 1) // 5 + 1
    k = (s - 1) % 5
    return r, (2 * k + 2 if r % 2 == 1 else 2 * k + 1)


def rc_sq(r, c):
    """Square number of (row, column), or None off the board or on a light square."""
    if not (1 <= r <= 10 and 1 <= c <= 10) or (r + c) % 2 == 0:
        return None
    return (r - 1) * 5 + (c - 1) // 2 + 1

DIRS=[(-1,-1),(-1,1),(1,-1),(1,1)]
def parse(fen):
    side,*parts=fen.strip().rstrip('.').split(':')
    P={}
    for p in parts:
        col=p[0].lower()
        for it in p[1:].split(','):
            if not it: continue
            k=it.startswith('K'); it=it.lstrip('K')
            a,_,b=it.partition('-'); b=b or a
            for n in range(int(a),int(b)+1): P[n]=(col,k)
    return side.lower(),P
def moves(fen, turkish=True):
    side,P=parse(fen)
    opp='b' if side=='w' else 'w'
    caps=[]
    def dfs(start,cur,king,taken,path):
        ext=False
        r,c=sq_rc(cur)
        for dr,dc in DIRS:
            if king:
                rr,cc=r+dr,c+dc
                while rc_sq(rr,cc) and free(rc_sq(rr,cc),start,taken): rr+=dr;cc+=dc
                s=rc_sq(rr,cc)
                if s and P.get(s,('x',0))[0]==opp and s not in taken:
                    lr,lc=rr+dr,cc+dc
                    while rc_sq(lr,lc) and free(rc_sq(lr,lc),start,taken|{s}):
                        ext=True; dfs(start,rc_sq(lr,lc),king,taken|{s},path+[rc_sq(lr,lc)]); lr+=dr;lc+=dc
            else:
                s=rc_sq(r+dr,c+dc); l=rc_sq(r+2*dr,c+2*dc)
                if s and l and P.get(s,('x',0))[0]==opp and s not in taken and free(l,start,taken|{s}):
                    ext=True; dfs(start,l,king,taken|{s},path+[l])
        if not ext and taken: caps.append((start,cur,frozenset(taken)))
    def free(s,start,taken):
        if s==start: return True
        if s not in P: return True
        if not turkish and s in taken: return True
        return False
    for s,(col,k) in P.items():
        if col==side: dfs(s,s,k,frozenset(),[])
    if caps:
        m=max(len(t) for _,_,t in caps)
        return sorted(set((a,b,t) for a,b,t in caps if len(t)==m), key=lambda x:(x[0],x[1],sorted(x[2])))
    out=[]
    for s,(col,k) in P.items():
        if col!=side: continue
        r,c=sq_rc(s)
        for dr,dc in DIRS:
            if not k and dr!=(-1 if side=='w' else 1): continue
            rr,cc=r+dr,c+dc
            while rc_sq(rr,cc) and rc_sq(rr,cc) not in P:
                out.append((s,rc_sq(rr,cc),frozenset()))
                if not k: break
                rr+=dr;cc+=dc
    return sorted(out,key=lambda x:(x[0],x[1]))
def fmt(ms):
    res=[]
    for a,b,t in ms:
        amb=sum(1 for a2,b2,t2 in ms if a2==a and b2==b)>1
        s='%d%s%d'%(a,'x' if t else '-',b)
        if amb: s+='('+','.join(map(str,sorted(t)))+')'
        res.append(s)
    return res
def random_fens(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        white, black = [], []
        for s in rng.sample(range(1, 51), rng.randint(2, 14)):
            col = rng.choice('wb')
            king = rng.random() < 0.4 or (col == 'w' and s <= 5) or (col == 'b' and s >= 46)
            (white if col == 'w' else black).append(('K' if king else '') + str(s))
        yield '%s:W%s:B%s' % (rng.choice('WB'), ','.join(white), ','.join(black))


if __name__ == '__main__':
    if sys.argv[1] == '--random':
        for fen in random_fens(int(sys.argv[2]), int(sys.argv[3])):
            print('%s\t%s' % (fen, ' '.join(sorted(fmt(moves(fen))))))
    else:
        print('\n'.join(fmt(moves(sys.argv[1]))))
