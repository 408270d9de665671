#!/usr/bin/env python3
"""Writes the synthetic telemetry runs in samples/telemetry-runs/: one positive and one negative
run per telemetry finding, each a plausible device under a fixed decode workload.

Deterministic (seeded), so re-running it reproduces the committed files byte for byte:
    python3 scripts/gen-telemetry-runs.py
The physics is deliberately simple (first-order heating, a step governor with hysteresis); the
point is that each run shows one phenomenon, with noise and the quirks of a real export.
"""
import math
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "samples", "telemetry-runs")
EPOCH = 1732870000  # 2024-11-29 08:46:40 UTC
OPPS = [2841.6, 2649.6, 2419.2, 2188.8, 1958.4, 1728.0, 1497.6]


def write(name, header, rows):
    with open(os.path.join(OUT, name), "w", newline="") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(r + "\n")


def phone_thermal(seed, minutes, dt, governor=True, trip=88.0, heat=60.0):
    """A big cluster heating under load; the governor steps down one OPP when the die sensor
    passes `trip` and steps up below trip - 6."""
    rnd = random.Random(seed)
    temp, skin, level = 36.0, 31.0, 0
    rows = []
    hold = 0
    for i in range(int(minutes * 60 / dt)):
        t = i * dt
        f = OPPS[level]
        power = heat * (f / OPPS[0]) ** 3
        temp += dt * (power - 0.55 * (temp - 30.0)) / 110.0
        skin += dt * ((temp - skin) * 0.02 - (skin - 28.0) * 0.01) / 10.0
        hold -= dt
        if governor and hold <= 0:
            if temp > trip and level < len(OPPS) - 1:
                level += 1
                hold = 10
            elif temp < trip - 6 and level > 0:
                level -= 1
                hold = 10
        tok = 14.2 * f / OPPS[0] + rnd.gauss(0, 0.25)
        rows.append((t, f, temp + rnd.gauss(0, 0.3), skin + rnd.gauss(0, 0.1), tok))
    return rows


def thermal_wall():
    rows = phone_thermal(1, 40, 2)
    write(
        "thermal-wall.csv",
        "timestamp,cpu4 freq [kHz],cpu7 freq [kHz],cpu-1-0-usr [m°C],xo-therm [°C],cpu load [%],decode tok/s",
        [
            f"{(EPOCH + t) * 1000:.0f},{f * 1000:.0f},{f * 1000:.0f},{temp * 1000:.0f},{skin:.1f},{97 + (t * 7) % 3:.0f},{tok:.2f}"
            for t, f, temp, skin, tok in rows
        ],
    )
    # Negative: it gets warm (to about 70 °C) but the clock holds.
    rows = phone_thermal(2, 40, 2, governor=True, heat=22.0)
    write(
        "hot-but-holding.csv",
        "timestamp,cpu4 freq [kHz],cpu7 freq [kHz],cpu-1-0-usr [m°C],xo-therm [°C],cpu load [%],decode tok/s",
        [
            f"{(EPOCH + t) * 1000:.0f},{f * 1000:.0f},{f * 1000:.0f},{temp * 1000:.0f},{skin:.1f},{97 + (t * 7) % 3:.0f},{tok:.2f}"
            for t, f, temp, skin, tok in rows
        ],
    )


def nvsmi(name, seed, busy_clock, busy_power, limit):
    rnd = random.Random(seed)
    header = ("timestamp, utilization.gpu [%], temperature.gpu, power.draw [W], power.limit [W], "
              "clocks.current.sm [MHz], clocks.current.memory [MHz], clocks_throttle_reasons.sw_power_cap")
    rows = []
    temp = 34.0
    for i in range(1200):
        t = i * 0.5
        if t < 20:
            util, clk, pw, cap = 0, 210, 35 + rnd.random(), "Not Active"
        elif t < 30:
            util, clk, pw, cap = 30, 1980, 140 + rnd.random() * 10, "Not Active"
        else:
            util = 100
            clk = busy_clock + rnd.choice([-30, -15, 0, 15, 30])
            pw = min(limit, busy_power + rnd.gauss(0, 0.8))
            cap = "Active" if pw > limit - 3 else "Not Active"
        temp += 0.5 * ((30 + pw * 0.12) - temp) / 90.0
        stamp = EPOCH + t
        whole = int(stamp)
        ms = int(round((stamp - whole) * 1000))
        tm = __import__("time").gmtime(whole)
        ts = f"{tm.tm_year}/{tm.tm_mon:02d}/{tm.tm_mday:02d} {tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d}.{ms:03d}"
        rows.append(f"{ts}, {util} %, {temp:.0f}, {pw:.2f} W, {limit:.2f} W, {clk} MHz, 1593 MHz, {cap}")
    write(name, header, rows)


def power_wall():
    nvsmi("power-wall.nvidia-smi.csv", 3, 1140, 299.0, 300.0)
    nvsmi("below-limit.nvidia-smi.csv", 4, 1950, 235.0, 300.0)


def tegrastats(name, seed, rotate):
    rnd = random.Random(seed)
    lines = []
    temp = 48.0
    for i in range(300):
        t = i * 2
        stamp = __import__("time").gmtime(EPOCH + t)
        date = f"{stamp.tm_mon:02d}-{stamp.tm_mday:02d}-{stamp.tm_year} {stamp.tm_hour:02d}:{stamp.tm_min:02d}:{stamp.tm_sec:02d}"
        cores = []
        for c in range(8):
            f = 2201
            if rotate and c < 4 and t >= 60 and c == (t // 20) % 4:
                f = 1113
            if not rotate and t >= 60:
                # the whole cluster steps down together as it heats
                f = 2201 if temp < 80 else (1728 if temp < 84 else 1420)
            cores.append(f"{96 + rnd.randint(0, 4)}%@{f}")
        heat = 0.9 if not rotate else 0.3
        temp += 2 * (heat * 40 + 45 - temp) / 150.0 + rnd.gauss(0, 0.1)
        lines.append(
            f"{date} RAM 6211/30536MB (lfb 12x4MB) SWAP 0/15268MB (cached 0MB) CPU [{','.join(cores)}] "
            f"EMC_FREQ 31%@3199 GR3D_FREQ 0%@[0,0] cpu@{temp:.3f}C soc2@{temp - 4:.3f}C tj@{temp + 0.6:.3f}C "
            f"VDD_GPU_SOC 3186mW/3186mW VDD_CPU_CV {9000 + rnd.randint(0, 400)}mW/9100mW VIN_SYS_5V0 4612mW/4612mW"
        )
    with open(os.path.join(OUT, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def perfdog_oscillating():
    rnd = random.Random(5)
    cols = ["Num", "Time"] + [f"CPUClock{c}[MHz]" for c in range(8)] + ["CPUUsage[%]", "BTemp[℃]", "Current[mA]", "Voltage[mV]", "Power[mW]", "BatteryLevel[%]", "tok/s"]
    rows = []
    for i in range(900):
        t = i
        levels = [2400, 2227, 2000]
        big = levels[(t // 10) % 3]
        little = 2515 if (t // 10) % 3 != 2 else 2112
        btemp = 31.0 + 2.5 * (1 - math.exp(-t / 300)) + rnd.gauss(0, 0.05)
        cur = 1650 + rnd.randint(-40, 40)
        volt = 3950 - t * 0.1
        tok = 17.5 * big / 2400 + rnd.gauss(0, 0.2)
        clocks = [little] * 6 + [big, big]
        rows.append(",".join(str(x) for x in [i + 1, f"{t}.00"] + clocks + [88, f"{btemp:.1f}", cur, f"{volt:.0f}", f"{cur * volt / 1000:.0f}", 82 - t // 120, f"{tok:.2f}"]))
    write("oscillating-cap.perfdog.csv", ",".join(cols), rows)


def battery_runs():
    rnd = random.Random(6)
    rows = []
    for i in range(1200):
        t = i * 2
        plugged = t >= 1200
        tok = (9.1 if plugged else 12.3) + rnd.gauss(0, 0.3)
        btemp = 33 + (t / 2400) * 6 + (2 if plugged else 0)
        rows.append(f"{EPOCH + t},{'true' if plugged else 'false'},{85 - t // 300 if not plugged else 81 + (t - 1200) // 400},{btemp:.1f},{tok:.2f}")
    write("charging-contention.csv", "epoch_s,USB powered,battery level [%],battery temp [°C],tok/s", rows)
    rows = []
    for i in range(1200):
        t = i * 2
        plugged = t >= 1200
        tok = 12.2 + rnd.gauss(0, 0.3)
        rows.append(f"{EPOCH + t},{'true' if plugged else 'false'},{70 - t // 300},{33 + (t / 2400) * 4:.1f},{tok:.2f}")
    write("charging-no-effect.csv", "epoch_s,USB powered,battery level [%],battery temp [°C],tok/s", rows)
    for name, start, end in (("low-battery.csv", 38.0, 4.0), ("battery-fine.csv", 92.0, 62.0)):
        rows = []
        for i in range(1800):
            t = i * 2
            level = start + (end - start) * t / 3600
            volt = 3500 + level * 7 + rnd.gauss(0, 4)
            tok = 11.0 if level >= 20 else 11.0 * (0.62 + 0.018 * level)
            rows.append(f"{t},{level:.0f},{volt:.0f},{tok + rnd.gauss(0, 0.2):.2f}")
        write(name, "elapsed [s],battery level [%],vbat [mV],tok/s", rows)


def stall_runs():
    for name, seed, periodic in (("periodic-stall.csv", 7, True), ("irregular-dips.csv", 8, False)):
        rnd = random.Random(seed)
        dips = set()
        if periodic:
            for start in range(25, 900, 30):
                dips.update({start, start + 1})
        else:
            t = 10
            while t < 900:
                t += int(rnd.expovariate(1 / 60)) + 5
                dips.add(t)
        rows = []
        for t in range(900):
            dip = t in dips
            tok = (5.5 if dip else 15.2) + rnd.gauss(0, 0.3)
            mv = (4620 if dip and periodic else 5080) + rnd.randint(-15, 15)
            rows.append(f"{t}.0,{tok:.2f},{mv},{1500 if not dip else 1500}")
        write(name, "time_s,tokens/s,vdd_5v [mV],arm_freq [MHz]", rows)


def decay_runs():
    rnd = random.Random(9)
    rows = []
    for i in range(1440):
        t = i * 5
        ctx = 256 + t * 0.9
        tok = 21.0 / (1 + ctx / 9000) + rnd.gauss(0, 0.25)
        rows.append(f"{t},{2419200},{54000 + rnd.randint(-400, 400)},{tok:.2f}")
    write("sustained-decay.csv", "time,cpu7_freq_khz,soc_temp_mc,tok/s", rows)
    rows = []
    for i in range(900):
        t = i * 2
        rows.append(f"{t},{2419200},{52000 + rnd.randint(-400, 400)},{45.0 + rnd.gauss(0, 0.3):.1f},{16.1 + rnd.gauss(0, 0.25):.2f},{97}")
    write("healthy.csv", "time,cpu7_freq_khz,soc_temp_mc,skin temp [°C],tok/s,cpu load [%]", rows)


def ambient_run():
    rnd = random.Random(10)
    rows = []
    for i in range(900):
        t = i * 4
        amb = 24.0 + 7.0 * t / 3600 + rnd.gauss(0, 0.1)
        rows.append(f"{t},{amb:.1f},{60 + amb * 0.5:.1f},2419.2,{15.0 - (amb - 24) * 0.1 + rnd.gauss(0, 0.2):.2f}")
    write("ambient.csv", "time,ambient temp [°C],soc temp [°C],cpu7 freq [MHz],tok/s", rows)


def undetermined_run():
    rnd = random.Random(11)
    rows = []
    for i in range(900):
        t = i * 2
        f = 3532.8 if t < 600 else 1958.4
        rows.append(f"{t},{f * 1000:.0f},{f * 1000:.0f},{29.0 + rnd.gauss(0, 0.2):.1f},{95 + rnd.randint(0, 4)},{13.0 * f / 3532.8 + rnd.gauss(0, 0.2):.2f}")
    write("cool-cap.csv", "time,cpu6 freq [kHz],cpu7 freq [kHz],skin temp [°C],cpu load [%],tok/s", rows)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    thermal_wall()
    power_wall()
    tegrastats("rotating-cap.tegrastats.txt", 12, True)
    tegrastats("uniform-cap.tegrastats.txt", 13, False)
    perfdog_oscillating()
    battery_runs()
    stall_runs()
    decay_runs()
    ambient_run()
    undetermined_run()
