#!/usr/bin/env python3
"""The length of the `state` messages a server sends each seat, by the game's version.

    scripts/state-sizes.py PORT GAMES

Plays GAMES one-round, two-seat Drop Site games of random legal moves against the server
at 127.0.0.1:PORT (`tabletop serve`, or the null server) over WebSockets (the standard
library only) and prints the mean, least and most bytes of the seat to act's state and of
the other seat's after each number of moves, and of the last state. The null server's
`--mode sqlite` sizes its states by these numbers (crates/server/examples/null_server.rs).
"""
import base64, json, os, random, socket, struct, sys, urllib.request, collections
port, games = int(sys.argv[1]), int(sys.argv[2])
def ws_connect(path):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf: buf += s.recv(4096)
    head, rest = buf.split(b"\r\n\r\n", 1)
    assert b" 101 " in head.split(b"\r\n")[0], head
    return [s, rest]
def recv_exact(c, n):
    while len(c[1]) < n:
        d = c[0].recv(65536)
        if not d: raise EOFError
        c[1] += d
    out, c[1] = c[1][:n], c[1][n:]
    return out
def recv(c):
    b0, b1 = recv_exact(c, 2)
    n = b1 & 127
    if n == 126: n = struct.unpack(">H", recv_exact(c, 2))[0]
    elif n == 127: n = struct.unpack(">Q", recv_exact(c, 8))[0]
    return b0 & 15, recv_exact(c, n)
def send(c, text):
    data = text.encode(); mask = os.urandom(4)
    hdr = bytes([0x81]) + (bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data)))
    c[0].sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
def next_state(c):
    while True:
        op, data = recv(c)
        if op == 1:
            m = json.loads(data)
            if m["type"] == "state": return m, len(data)
sizes = collections.defaultdict(list)  # (version, mover-or-other) -> sizes
for g in range(games):
    body = json.dumps({"game": "dropsite", "options": {"max_rounds": 1}, "seats": ["human", "human"]}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body, headers={"content-type": "application/json"})
    t = json.load(urllib.request.urlopen(req))
    socks = [ws_connect(f"/api/tables/{t['id']}/ws?token={s['token']}") for s in t["seats"]]
    last = [next_state(c) for c in socks]
    for seat in range(2):
        key = "to act" if last[seat][0]["to_act"] == seat else "waiting"
        sizes[(0, key)].append(last[seat][1])
        sizes[(100, key)].append(last[seat][1])
    while last[0][0]["status"] != "finished":
        m = last[0][0]; mover = m["to_act"]
        mm = last[mover][0]
        send(socks[mover], json.dumps({"type": "action", "action": random.choice(mm["legal"]), "version": mm["version"]}, separators=(",", ":")))
        new = [next_state(c) for c in socks]
        for seat in range(2):
            key = "finished" if new[seat][0]["status"] == "finished" else ("to act" if new[seat][0]["to_act"] == seat else "waiting")
            sizes[(new[seat][0]["version"] if key != "finished" else 99, key)].append(new[seat][1])
            sizes[(100, key)].append(new[seat][1])
        last = new
    for c in socks: c[0].close()
print("| version | seat | states | mean bytes | least | most |")
print("|---:|---|---:|---:|---:|---:|")
for (version, key) in sorted(sizes):
    v = sizes[(version, key)]
    name = {99: "the last", 100: "all"}.get(version, version)
    print(f"| {name} | {key} | {len(v)} | {round(sum(v) / len(v))} | {min(v)} | {max(v)} |")
