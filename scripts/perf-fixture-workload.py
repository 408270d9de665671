import ctypes, threading, time
libc = ctypes.CDLL(None)
def name(n): libc.prctl(15, n.encode(), 0, 0, 0)
name("llama-cli")
def w():
    name("llama-cli")
    t = time.time()
    x = 0
    while time.time() - t < 0.4:
        x += 1
ts = [threading.Thread(target=w) for _ in range(4)]
[x.start() for x in ts]; [x.join() for x in ts]
