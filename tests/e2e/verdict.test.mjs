// The answer comes first: for each kind of case, the verdict's headline is on the first screen
// at desktop and phone size, names the right first cause with its numbers, and no sample makes
// the page scroll sideways on a 390 px phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

const SIZES = [[1280, 800], [390, 844]];

const CASES = [
  {
    name: 'the demo',
    files: 'example',
    cause: 'build',
    numbers: [/0\.57 tok\/s/],
  },
  {
    name: 'the seed-000 compare pair',
    files: ['samples/compare/seed000-device-a.logcat.txt', 'samples/compare/seed000-device-b.logcat.txt'],
    cause: 'build',
    numbers: [/0\.57 tok\/s/, /23\.5×/, /13\.4 tok\/s/, /7\.0×/],
    gap: '23.5',
    // The sized causes compound: the kernels, the expanded weights and the threads.
    gapText: /explain about 9\.8×/,
  },
  {
    name: 'a little-cores trace with its cpuinfo',
    files: ['samples/traces/llama-little-cores.perf.txt', 'samples/traces/llama-little-cores.cpuinfo.txt'],
    cause: 'threads',
    numbers: [/\d+(\.\d)?×/],
  },
  {
    name: 'a thermal-wall telemetry run with its log',
    files: ['samples/telemetry-runs/thermal-wall.csv', 'samples/telemetry-runs/thermal-wall.llama-cli.log'],
    cause: 'power',
    numbers: [/12\.6 tok\/s/, /1\.4×/],
  },
  {
    // Seed 002 §4.1: the clock falls while every sensor is cool, so the power wall is named.
    name: 'a cool clock cap (telemetry alone)',
    files: ['samples/telemetry-runs/cool-cap.csv'],
    cause: 'power',
    numbers: [/Likely a power wall/, /1\.8×/],
  },
  // Issue 24: the questions users ask, each from what they paste.
  {
    // "Why did it get slow?": `grep MHz /proc/cpuinfo` beside the run shows 400 of 3400 MHz.
    name: 'a llama.cpp run with grep MHz /proc/cpuinfo at 400 MHz',
    files: ['samples/logs/llama-cli-grep-mhz-400.md'],
    cause: 'power',
    numbers: [/1\.19 tok\/s/, /8\.3×/],
  },
  {
    // "Is the NPU used?": TFLite's own partition line answers it, and sizes what is at stake.
    name: 'an NNAPI delegate that took 53 of 87 nodes in 17 partitions',
    files: ['samples/logs/tflite-nnapi-partitions.logcat.txt'],
    cause: 'build',
    numbers: [/Only part of the graph runs on the accelerator/],
  },
  {
    // "Why is the GPU delegate no faster?": the op profile shows what the CPU part costs.
    name: 'a TFLite op profile with 46% of the time on the CPU beside the GPU delegate',
    files: ['samples/logs/tflite-gpu-op-profile.txt'],
    cause: 'build',
    numbers: [/21\.7 ms on average/, /Part of the inference time runs on the CPU/, /1\.6×/],
  },
  {
    name: 'an ONNX Runtime profile with half the kernel time on the CPU beside QNN',
    files: ['samples/logs/onnxruntime_profile__2026-11-30_10-42-17.json'],
    cause: 'build',
    numbers: [/Part of the inference time runs on the CPU/, /1\.7×/],
  },
  {
    name: 'an ExecuTorch export that delegated 2588 of 5101 nodes in 368 subgraphs',
    files: ['samples/logs/executorch-export-llm-delegation.md'],
    cause: 'build',
    numbers: [/Part of the ExecuTorch graph stays outside its delegate/],
  },
  {
    // "Every layer is offloaded, why is it slow?": the scheduler's split count answers it.
    name: 'a full Vulkan offload whose graph is cut into 74 pieces',
    files: ['samples/logs/llama-vulkan-arc-graph-splits.md'],
    cause: 'build',
    numbers: [/7\.50 tok\/s/, /Decode's graph hops between the GPU and the CPU/],
  },
  {
    name: 'a partial GPU offload in an ollama server journal',
    files: ['samples/logs/ollama-journal-partial-offload.log'],
    cause: 'build',
    numbers: [/Only part of the model is on the GPU/, /2\.5×/],
  },
  {
    name: 'an ollama engine log that offloads no layer and names no GPU',
    files: ['samples/logs/ollama-engine-no-gpu-layers.journal.log'],
    cause: 'build',
    numbers: [/No layer is on a GPU/],
  },
  {
    name: 'an ollama estimate that leaves layers on the CPU for a long context',
    files: ['samples/logs/ollama-offload-estimate-long-context.journal.log'],
    cause: 'build',
    numbers: [/Only part of the model is on the GPU/, /2\.5×/],
  },
  {
    name: 'a wrapped ollama estimate that places no layer next to nvidia-smi',
    files: ['samples/logs/ollama-vision-zero-layers-wrapped.md'],
    cause: 'build',
    numbers: [/A GPU was found and given nothing/],
  },
  {
    name: 'more ollama threads than the SLURM job may use',
    files: ['samples/logs/ollama-slurm-threads-over-allocation.md'],
    cause: 'threads',
    numbers: [/More threads than usable CPUs/],
  },
  {
    name: 'llama.cpp on an RK3588 board with no -t: threads on its little cores',
    files: ['samples/logs/llama-rk3588-default-threads.md'],
    cause: 'threads',
    numbers: [/Threads on every core, little cores included/],
  },
  {
    name: 'llama-cpp-python built for x86 on an Apple M2',
    files: ['samples/logs/llama-cpp-python-rosetta-x86.md'],
    cause: 'build',
    numbers: [/An x86 build on an ARM machine/],
  },
  {
    name: 'a Jetson in a 15W mode, stated in words',
    files: ['samples/logs/jetson-orin-nano-15w-llama.md'],
    cause: 'power',
    numbers: [/a power mode below the maximum/],
  },
  {
    name: 'koboldcpp with --usecublas and no --gpulayers',
    files: ['samples/logs/koboldcpp-usecublas-no-gpulayers.txt'],
    cause: 'build',
    numbers: [/The GPU backend is on, but no layer is on the GPU/],
  },
  {
    name: 'a Jetson far below its memory speed with no power mode stated',
    files: ['samples/logs/jetson-mlc-benchmark-no-mode.md'],
    cause: 'power',
    numbers: [/its power mode unknown/],
  },
  {
    name: 'llama.cpp on Metal past the working set macOS keeps on the GPU',
    files: ['samples/logs/llama-metal-m1-8gb-working-set.log'],
    cause: 'memory',
    numbers: [/The model is past what Metal keeps on the GPU/],
  },
  {
    name: 'a 7B model on a 4 GB Raspberry Pi, the memory in the user\'s words and in free -h',
    files: ['samples/logs/llama-pi4-4gb-7b-paging.md'],
    cause: 'memory',
    numbers: [/The model is larger than the machine's memory/, /0\.10 tok\/s/],
  },
  {
    name: 'an issue form in Chinese: a 32B model named, a 16 GB Mac, no log at all',
    files: ['samples/logs/lmstudio-issue-qwen32b-16gb-mac.zh.md'],
    cause: 'memory',
    numbers: [/The model you name is larger than the machine's memory/],
  },
  {
    name: 'llama-server on a 13th-gen laptop slows when minimized: the E-cores, sized from the two runs',
    files: ['samples/logs/llama-server-windows-minimized-ecores.md'],
    cause: 'threads',
    numbers: [/efficiency cores/, /4\.1×/],
  },
  {
    name: 'MNN on an RK3399 asked for low precision: the CPU has no fp16, so it ran fp32',
    files: ['samples/logs/mnn-benchmark-rk3399-precision-low-no-fp16.zh.md'],
    cause: 'build',
    numbers: [/no fp16 arithmetic/],
  },
  {
    name: 'a source-built ollama 0.4 plans 33 layers for CUDA, then starts its cpu_avx2 runner',
    files: ['samples/logs/ollama-source-build-cpu-runner.journal.md'],
    cause: 'build',
    numbers: [/CPU runner/],
  },
  {
    name: 'ollama 0.1 on JetPack 5: every GPU library search empty',
    files: ['samples/logs/ollama-0.1-jetpack5-no-gpu.txt'],
    cause: 'build',
    numbers: [/No usable GPU was found/],
  },
  {
    name: 'ollama on a Jetson whose driver is older than the bundled CUDA runtime',
    files: ['samples/logs/ollama-jetson-driver-too-old.txt'],
    cause: 'build',
    numbers: [/The GPU driver is too old for this build's CUDA/],
  },
  {
    name: 'a llama.cpp CUDA build run without -ngl',
    files: ['samples/logs/llama-cuda-command-without-ngl.md'],
    cause: 'build',
    numbers: [/the command asks for no layers on it/],
  },
  {
    name: 'two timings blocks typed under CPU and Vulkan headings, the GPU slower',
    files: ['samples/logs/llama-vulkan-iris-xe-slower-typed.md'],
    cause: 'build',
    numbers: [/The Vulkan path decodes slower than the CPU/, /1\.8×/],
  },
  {
    // "Why is it slower with more threads?": two blocks typed under `with -t 8:` and `with -t 4:`.
    name: 'two llama.cpp timings blocks typed under thread-count headings, 8 threads slower',
    files: ['samples/logs/llama-rk3588-threads-labelled.md'],
    cause: 'threads',
    numbers: [/More threads are slower/, /4\.3×/],
  },
  {
    // An Orange Pi 5 named in prose and `./main` without -t: llama.cpp's default thread count
    // is inferred, not stated, so its finding is an info cause and the headline names none.
    name: 'llama.cpp on an Orange Pi 5 with no -t and no system_info: the default, inferred at info',
    files: ['samples/logs/llama-orangepi5-no-t-default.md'],
    cause: null,
    numbers: [/8\.00 tok\/s/, /No known cause/],
  },
  {
    name: 'two whisper.cpp timings blocks, one build 7× slower in encode',
    files: ['samples/logs/whisper-two-builds-encode-gap.txt'],
    cause: 'build',
    numbers: [/7\.15× as long for the same encode/],
  },
  {
    name: 'llamafile on a Raspberry Pi 5, CPU only as asked',
    files: ['samples/logs/llamafile-pi5-cpu-only.md'],
    cause: null,
    numbers: [/12\.3 tok\/s/, /No known cause of slow decoding/],
  },
  {
    name: 'an MNN LLM on OpenCL with a CPU thread_num that fails to load',
    files: ['samples/logs/mnn-llm-opencl-thread-num-4.zh.md'],
    cause: 'build',
    numbers: [/OpenCL is given thread_num 4/, /LLMs need 68/],
  },
  {
    name: 'a CUDA build command and a llama-cli command without -ngl, no log',
    files: ['samples/logs/llama-cuda-build-command-no-ngl.md'],
    cause: 'build',
    numbers: [/The build has a GPU backend, but the command asks for no layers on it/],
  },
  {
    name: 'llama-bench tables of one model on Vulkan and on the CPU, the GPU slower',
    files: ['samples/logs/llama-bench-vulkan-slower-than-cpu-mali.md'],
    cause: 'build',
    numbers: [/The Vulkan path decodes slower than the CPU/, /2\.9×/],
  },
  {
    name: 'a 2023 CUDA build that offloaded one layer of 35',
    files: ['samples/logs/llama-2023-cuda-one-layer-offloaded.md'],
    cause: 'build',
    numbers: [/Only part of the model is on the GPU/, /6\.60 tok\/s/],
  },
  {
    // "70B on a 4090 only 2 t/s": the pasted -ngl 40 is fewer layers than a 70B has.
    name: 'a pasted command asking for 40 GPU layers of a 70B model',
    files: ['samples/logs/llama-cpp-70b-ngl-40-rtx4090.md'],
    cause: 'build',
    numbers: [/Only part of the model is on the GPU/, /2\.13 tok\/s/, /2\.5×/],
  },
  {
    name: 'a command with -t 6912, a GPU core count given as CPU threads',
    files: ['samples/logs/llama-cpp-a100-threads-6912.md'],
    cause: 'threads',
    numbers: [/More threads than usable CPUs/, /0\.31 tok\/s/],
  },
  {
    name: 'two builds bisected on an RK3588 with the default thread count',
    files: ['samples/logs/llama-rock5b-bisect-default-threads.md'],
    cause: 'threads',
    numbers: [/default thread count probably reaches the little cores/, /2\.1×/],
  },
  {
    name: 'an ollama CPU backend whose system record lists no vector extension',
    files: ['samples/logs/ollama-cpu-backend-no-avx.txt'],
    cause: 'build',
    numbers: [/No AVX2 in this x86 build/, /4\.43 tok\/s/],
  },
  {
    name: 'llama.cpp at -t 16 on an Intel MacBook Pro whose 8 cores the user names',
    files: ['samples/logs/llama-intel-mbp-i9-16-threads.md'],
    cause: 'threads',
    numbers: [/Threads counted on SMT siblings/, /3\.17 tok\/s/],
  },
  {
    name: 'JSON Lines telemetry whose big cluster steps down as the CPU heats',
    files: ['samples/telemetry/phone-decode-thermal.jsonl'],
    cause: 'power',
    numbers: [/Thermal wall/, /1\.4×/],
  },
  {
    name: 'an onnxruntime-genai C++ model_benchmark report',
    files: ['samples/logs/onnxruntime-genai-model-benchmark-cpu.txt'],
    cause: null,
    numbers: [/14\.0 tok\/s/],
  },
  {
    name: 'a thread sweep typed as a markdown table',
    files: ['samples/logs/sweep-threads-markdown.md'],
    cause: 'threads',
    numbers: [/12\.0 tok\/s/, /44×/],
  },
  {
    name: 'a thread sweep typed as prose lines that stops gaining',
    files: ['samples/logs/sweep-threads-prose.md'],
    cause: null,
    numbers: [/bandwidth-bound/, /68\.0 GB\/s/, /DDR5-6000/],
  },
  {
    name: 'a CPU-only question with its timings: is this just my memory?',
    files: ['samples/logs/llama-cpu-ddr4-70b-question.md'],
    cause: null,
    numbers: [/1\.09 tok\/s/, /bandwidth-bound/, /DDR4-3200/],
  },
  {
    name: 'more threads than a container may use',
    files: ['samples/logs/docker-cgroup-nproc-llama-server.txt'],
    cause: 'threads',
    numbers: [/More threads than usable CPUs/],
  },
  {
    name: 'a cpufreq-info dump stuck at 400 MHz',
    files: ['samples/system/cpufreq-info-400mhz-performance.txt'],
    cause: 'power',
    numbers: [/stuck at its floor/, /11×/],
  },
  {
    name: 'an nvidia-smi row at P3 while generating',
    files: ['samples/system/nvidia-smi-p3-33w-generating.txt'],
    cause: 'power',
    numbers: [/power-saving performance state/],
  },
  {
    name: 'an nvidia-smi loop at P3, a model loaded and 31% busy (partial offload)',
    files: ['samples/system/nvidia-smi-l-p3-partial-offload.txt'],
    cause: 'power',
    numbers: [/kept in a power-saving performance state/],
  },
  {
    name: 'two labelled ollama ps rows, the newer version 17% on the CPU',
    files: ['samples/logs/ollama-ps-labelled-versions.md'],
    cause: 'build',
    numbers: [/Only part of the model is on the GPU/, /38\.1 tok\/s/],
  },
  {
    name: 'an ollama server on a CPU without AVX: the GPU is turned off, the CPU lacks the SIMD',
    files: ['samples/logs/ollama-xeon-no-avx-gpu-disabled.journal.log'],
    cause: 'build',
    numbers: [/No AVX2 in this x86 build or CPU/],
  },
  {
    name: 'mlx-lm benchmark trials on a fanless laptop fall trial after trial',
    files: ['samples/logs/mlx-lm-benchmark-fanless-trials.md'],
    cause: 'power',
    numbers: [/Repeated runs get slower/, /43\.1 tok\/s/, /1\.2×/],
  },
  {
    name: 'a Jetson benchmark below the result the user quotes: the headline is their run, the mode is asked',
    files: ['samples/logs/mlc-benchmark-below-quoted-result.md'],
    cause: 'power',
    numbers: [/decodes at 11\.7 tok\/s/, /its power mode unknown/],
  },
  {
    name: 'a vllm-mlx completion line with no phase word is the decode speed',
    files: ['samples/logs/vllm-mlx-server-chat-completion.md'],
    cause: null,
    numbers: [/11\.5 tok\/s/],
  },
  {
    name: 'a bandwidth-bound healthy run',
    files: ['samples/logs/llama-metal-m2pro-bandwidth-bound.log'],
    cause: null,
    numbers: [/34\.1 tok\/s/, /bandwidth-bound/, /Apple M2 Pro/],
  },
  {
    name: 'an OpenCL out-of-memory inside a Java trace',
    files: ['samples/logs/android-mlc-opencl-oom-java-trace.logcat.txt'],
    cause: 'failed',
    numbers: [/ran out of memory/],
  },
  {
    name: 'a CLBlast clCreateBuffer error -5 after offloading most layers',
    files: ['samples/logs/llama-opencl-clcreatebuffer-oom.log'],
    cause: 'failed',
    numbers: [/ran out of memory/],
  },
  {
    name: "the shell's bare Killed while an Android model loads",
    files: ['samples/logs/android-lmkd-killed-loading.logcat.txt'],
    cause: 'failed',
    numbers: [/ran out of memory/],
  },
  {
    name: 'ollama runner killed by SIGILL on a CPU without AVX',
    files: ['samples/logs/ollama-sigill-no-avx.txt'],
    cause: 'failed',
    numbers: [/illegal instruction/],
  },
  {
    name: 'a healthy run',
    files: ['samples/traces/healthy.perf.txt'],
    cause: null,
    numbers: [/No known cause/, /100% of their time on the fast cores/],
  },
];

/** Analyzes `files` and waits until every file is read (the report re-renders until then). */
async function analyze(page, files) {
  const n = files === 'example' ? 1 : files.length;
  if (files === 'example') await page.click('#example');
  else await page.setInputFiles('#file-input', files.map((f) => join(ROOT, f)));
  // The status turns to "done" at the last file-done, just before that file's report arrives:
  // wait for the report that lists every input too.
  await page.waitForFunction((count) => document.querySelector('#cancel').hidden
    && document.querySelector('#status').textContent.includes(String(count))
    && document.querySelectorAll('#inputs > li').length === count
    && document.querySelector('#verdict-headline'), n);
}

for (const c of CASES) {
  for (const [width, height] of SIZES) {
    test(`${c.name}: the verdict is on the first screen at ${width}×${height}`, async () => {
      const { page, context, errors } = await openPage(browser, server.url);
      await page.setViewportSize({ width, height });
      await analyze(page, c.files);
      // Read in one go: a late re-render may replace the node between two calls.
      const { top, bottom, text } = await page.evaluate(() => {
        const h = document.querySelector('#verdict-headline');
        const r = h.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, text: h.textContent };
      });
      assert.ok(top >= 0 && bottom <= height, `headline spans ${top}–${bottom} px of ${height}`);
      for (const n of c.numbers) assert.match(text, n);
      const first = page.locator('.verdict-causes li').first();
      if (c.cause) {
        assert.equal(await first.getAttribute('data-cause'), c.cause);
        const title = await first.locator('a').textContent();
        // A failed run's headline says what failed and where, not the cause's title.
        if (c.cause !== 'failed') assert.ok(text.includes(title), `the headline names the first cause "${title}": ${text}`);
        // The cause's cards sit under it, and only the lead card opens its details.
        const cards = page.locator(`#cause-${c.cause} .finding`);
        assert.ok(await cards.count() >= 1);
        assert.equal(await page.locator('#findings .finding-more[open]').count(), 1);
      } else {
        const serious = await page.locator('.verdict-causes li:not([data-severity="info"])').count();
        assert.equal(serious, 0, 'a healthy run lists no warning or critical cause');
      }
      if (c.gap) assert.equal(await page.locator('.verdict-gap').getAttribute('data-gap'), c.gap);
      if (c.gapText) assert.match(await page.locator('.verdict-gap').textContent(), c.gapText);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
}

test('the Chinese page renders the verdict from the catalogue', async () => {
  const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await analyze(page, CASES[1].files);
  const text = await page.locator('#verdict-headline').textContent();
  assert.match(text, /慢 23\.5 倍/);
  assert.match(text, /首要原因：运行位置、构建与算子/);
  assert.doesNotMatch(text, /First cause|decodes at/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Chinese page names the new causes from the catalogue', async () => {
  for (const [file, cause] of [
    ['samples/logs/ollama-journal-partial-offload.log', /只有部分模型在 GPU 上/],
    ['samples/system/cpufreq-info-400mhz-performance.txt', /首要原因：功耗、散热与供电——.*卡在最低频率/],
    ['samples/logs/tflite-nnapi-partitions.logcat.txt', /只有部分计算图在加速器上运行/],
    ['samples/logs/tflite-gpu-op-profile.txt', /部分推理时间花在 CPU 上/],
    ['samples/logs/sweep-threads-prose.md', /解码受内存带宽限制：读取 68\.0 GB\/s/],
    ['samples/logs/ollama-engine-no-gpu-layers.journal.log', /没有任何层在 GPU 上/],
    ['samples/logs/ollama-slurm-threads-over-allocation.md', /线程数超过可用 CPU/],
    ['samples/logs/llama-rk3588-default-threads.md', /线程数等于全部核心（包括小核）/],
    ['samples/logs/llama-cpp-python-rosetta-x86.md', /ARM 机器上跑的是 x86 构建/],
    ['samples/logs/jetson-orin-nano-15w-llama.md', /功耗模式低于最高档/],
    ['samples/logs/koboldcpp-usecublas-no-gpulayers.txt', /开启了 GPU 后端，但没有任何层在 GPU 上/],
    ['samples/logs/jetson-mlc-benchmark-no-mode.md', /功耗模式未知/],
    ['samples/logs/llama-metal-m1-8gb-working-set.log', /模型超出了 Metal 允许常驻 GPU 的内存/],
    ['samples/logs/llama-pi4-4gb-7b-paging.md', /模型比设备内存还大/],
    ['samples/logs/lmstudio-issue-qwen32b-16gb-mac.zh.md', /你提到的模型比设备内存还大/],
    ['samples/logs/llama-server-windows-minimized-ecores.md', /Windows 把推理挪到了能效核/],
    ['samples/logs/mnn-benchmark-rk3399-precision-low-no-fp16.zh.md', /CPU 不支持 fp16 计算/],
    ['samples/logs/ollama-source-build-cpu-runner.journal.md', /ollama 启动的是 CPU runner/],
    ['samples/logs/ollama-jetson-driver-too-old.txt', /GPU 驱动比该构建所带的 CUDA 旧/],
    ['samples/logs/llama-cuda-command-without-ngl.md', /命令没有要求把层放到 GPU 上/],
    ['samples/logs/llama-bench-vulkan-slower-than-cpu-mali.md', /Vulkan 路径的解码比 CPU 还慢/],
    ['samples/logs/llama-cuda-build-command-no-ngl.md', /构建带有 GPU 后端，但命令没有要求把层放到 GPU 上/],
    ['samples/logs/mnn-llm-opencl-thread-num-4.zh.md', /OpenCL 配置的 thread_num 为 4/],
    ['samples/logs/llama-rk3588-threads-labelled.md', /线程越多反而越慢/],
    ['samples/logs/ollama-ps-labelled-versions.md', /只有部分模型在 GPU 上/],
    ['samples/logs/llama-cpp-a100-threads-6912.md', /线程数超过可用 CPU/],
    ['samples/logs/tflite-benchmark-nnapi-android7.txt', /这台设备上没有可用的 NNAPI/],
    ['samples/logs/llama-cpp-python-n-gpu-layers-1.md', /只有部分模型在 GPU 上.*4\.8 倍/],
    ['samples/logs/llama-rock5b-bisect-default-threads.md', /首要原因：线程与调度——默认线程数很可能用到了小核/],
    ['samples/logs/ollama-cpu-backend-no-avx.txt', /x86 构建或 CPU 缺少 AVX2/],
    ['samples/system/nvidia-smi-l-p3-partial-offload.txt', /装载着模型的 GPU 被保持在省电的性能状态/],
    ['samples/logs/vllm-mlx-server-chat-completion.md', /解码 11\.5 tok\/s/],
    ['samples/logs/llama-orangepi5-no-t-default.md', /没有发现已知的拖慢解码的原因/],
    ['samples/logs/whisper-two-builds-encode-gap.txt', /同样的 encode 阶段，其中一次运行耗时是另一次的 7\.15 倍/],
    ['samples/logs/llama-opencl-clcreatebuffer-oom.log', /进程内存耗尽或因此被杀/],
    ['samples/logs/android-lmkd-killed-loading.logcat.txt', /进程内存耗尽或因此被杀/],
    ['samples/logs/ollama-sigill-no-avx.txt', /进程执行了非法指令/],
    ['samples/logs/ollama-xeon-no-avx-gpu-disabled.journal.log', /x86 构建或 CPU 缺少 AVX2/],
    ['samples/logs/mlx-lm-benchmark-fanless-trials.md', /重复运行越来越慢/],
    ['samples/logs/mlc-benchmark-below-quoted-result.md', /Jetson 比你对照的结果慢/],
  ]) {
    const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
    await analyze(page, [file]);
    const text = await page.locator('#verdict-headline').textContent();
    assert.match(text, cause, file);
    assert.doesNotMatch(text, /First cause|decodes at/, file);
    assert.deepEqual(errors, [], file);
    await context.close();
  }
});

test('no sample makes the page scroll sideways at 390 px', async () => {
  const dirs = ['compare', 'demo', 'logs', 'negative', 'telemetry', 'telemetry-runs', 'traces', 'invalid', 'encodings'];
  const wide = [];
  let n = 0;
  for (const d of dirs) {
    for (const f of (await readdir(join(ROOT, 'samples', d))).sort()) {
      const { page, context, errors } = await openPage(browser, server.url);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.setInputFiles('#file-input', join(ROOT, 'samples', d, f));
      await page.waitForFunction(() => document.querySelector('#cancel').hidden
        && !document.querySelector('#results').hidden);
      // Charts draw on the next frames.
      await page.waitForTimeout(100);
      const w = await page.evaluate(() => document.documentElement.scrollWidth);
      if (w > 390) wide.push(`${d}/${f}: ${w} px`);
      assert.deepEqual(errors, [], `${d}/${f}`);
      n += 1;
      await context.close();
    }
  }
  assert.ok(n > 40, `${n} samples`);
  assert.deepEqual(wide, []);
});
