# Verify a creatorapi webhook in Python (standard library only).
# WEBHOOK_SECRET=whsec_... X_SVC_SIGNATURE='t=...,v1=...' python3 verify.py < body.json
import hashlib
import hmac
import os
import sys
import time


def verify(secret: str, header: str, body: bytes, now: float) -> bool:
    """HMAC-SHA256 of "<t>.<body>" keyed with the whole secret; any v1 may match
    (two during a rotation); t at most 5 minutes old. Use the raw body, not re-encoded JSON."""
    ts, sigs = "", []
    for part in header.split(","):
        k, _, v = part.strip().partition("=")
        if k == "t":
            ts = v
        elif k == "v1":
            sigs.append(v)
    if not ts.isdigit() or abs(now - int(ts)) > 300:
        return False
    want = hmac.new(secret.encode(), ts.encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(s, want) for s in sigs)


if __name__ == "__main__":
    body = sys.stdin.buffer.read()
    ok = verify(os.environ["WEBHOOK_SECRET"], os.environ["X_SVC_SIGNATURE"], body, time.time())
    print("valid" if ok else "invalid")
    sys.exit(0 if ok else 1)
