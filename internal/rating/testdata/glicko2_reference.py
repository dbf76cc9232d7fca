#!/usr/bin/env python3
"""An independent Glicko-2 computation, for the expected values of
glicko2_test.go's TestReferenceCases.

It follows Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1 to
8, but finds the new volatility (step 5) by plain bisection on f to 1e-13,
not by the Illinois iteration the Go code uses, and shares no code with it.
Run it with Python 3 and paste its output into the test:

    python3 internal/rating/testdata/glicko2_reference.py
"""
import math

SCALE = 173.7178


def f_of(x, a, delta, phi, v, tau):
    ex = math.exp(x)
    d = phi * phi + v + ex
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau)


def new_volatility(sigma, phi, v, delta, tau):
    a = math.log(sigma * sigma)
    # f is decreasing in x; find lo with f(lo) > 0 and hi with f(hi) < 0.
    lo, hi = a, a
    while f_of(lo, a, delta, phi, v, tau) <= 0:
        lo -= 1.0
    while f_of(hi, a, delta, phi, v, tau) >= 0:
        hi += 1.0
    for _ in range(400):
        mid = (lo + hi) / 2
        if f_of(mid, a, delta, phi, v, tau) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return math.exp((lo + hi) / 4)


def update(r, rd, sigma, games, tau):
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    if not games:
        return r, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma
    vinv, s = 0.0, 0.0
    for (rj, rdj, score) in games:
        muj, phij = (rj - 1500) / SCALE, rdj / SCALE
        gj = 1 / math.sqrt(1 + 3 * phij * phij / (math.pi ** 2))
        e = 1 / (1 + math.exp(-gj * (mu - muj)))
        vinv += gj * gj * e * (1 - e)
        s += gj * (score - e)
    v = 1 / vinv
    delta = v * s
    sig = new_volatility(sigma, phi, v, delta, tau)
    phistar = math.sqrt(phi * phi + sig * sig)
    phinew = 1 / math.sqrt(1 / (phistar * phistar) + 1 / v)
    munew = mu + phinew * phinew * s
    return munew * SCALE + 1500, phinew * SCALE, sig


CASES = [
    # name, tau, (R, RD, sigma), [(opponent R, RD, score)]
    ("upset streak: 1400 beats five 2000s", 0.5, (1400, 80, 0.06),
     [(2000, 50, 1), (2010, 60, 1), (1990, 40, 1), (2050, 70, 1), (1980, 30, 1)]),
    ("expected result: 2200 beats three 1700s", 0.5, (2200, 60, 0.06),
     [(1700, 50, 1), (1720, 80, 1), (1690, 40, 1)]),
    ("collapse: 2100 loses four to 1600s, high volatility", 1.2, (2100, 40, 0.09),
     [(1600, 60, 0), (1620, 50, 0), (1580, 70, 0), (1610, 45, 0)]),
    ("draws against a stronger player lower volatility", 0.3, (1750, 120, 0.1),
     [(1900, 90, 0.5), (1900, 90, 0.5), (1900, 90, 0.5)]),
    ("new player below 1500 loses to a new player", 0.5, (1320, 350, 0.06),
     [(1500, 350, 0)]),
    ("small upset: 1500 beats 1535", 0.5, (1500, 50, 0.06), [(1535, 30, 1)]),
    ("twelve games, one win more than expected", 0.5, (1500, 60, 0.06),
     [(1500, 50, 1)] + [(1500, 50, 0.5)] * 11),
    ("large tau: an expected draw lowers a high volatility", 5.0, (1650, 30, 0.8),
     [(1650, 30, 0.5)]),
]

if __name__ == "__main__":
    for name, tau, (r, rd, sigma), games in CASES:
        nr, nrd, ns = update(r, rd, sigma, games, tau)
        print(f'{{"{name}", {tau}, Rating{{R: {r}, RD: {rd}, Sigma: {sigma}}}, '
              f'{[list(g) for g in games]}, Rating{{R: {nr:.6f}, RD: {nrd:.6f}, Sigma: {ns:.9f}}}}},')
