"""Pieces the trainers share (``train_checkers``, ``train_trays``, ``train_stacks``,
``train_edges``, ``train_lean``, ``train_cube``)."""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import crops, nets
from vision.board import BoardView, Corners, board_from_corners, find_bar, order_corners
from vision.config import DiceConfig, ReadConfig
from vision.render import Scene, render_scene

Image = npt.NDArray[np.uint8]
# ``fit_found``: samples a batch, peak learning rate, the seed of its generator.
FIT_BATCH = 128
FIT_RATE = 2e-3
FIT_SEED = 1


@dataclass(frozen=True)
class FoundSample:
    """An object as the reader found it in a rendered frame (a die for ``train_lean``, the
    cube for ``train_cube``): the frame around it, its found centre in that patch and side
    (pixels), and its label (a class index)."""

    patch: Image
    center: tuple[float, float]
    side: float
    label: int
    angle: float = 0.0

    @classmethod
    def cut(
        cls,
        image: Image,
        center: tuple[float, float],
        side: float,
        sides: float,
        label: int,
        angle: float = 0.0,
    ) -> FoundSample:
        """The sample of an object found at ``center`` with ``side`` in ``image``: the frame
        ``sides`` sides (and 4 pixels) either way of it; ``angle`` (degrees) turns its crop as
        the reader turns it (``vision.lean.nadir_angle``)."""
        patch, inside = crops.region(image, *center, sides * side + 4.0)
        return cls(patch, inside, side, label, angle)


def save_samples(path: Path, samples: object) -> None:
    """``samples`` pickled to ``path`` as a stream: saving holds no second copy in memory, as
    ``pickle.dumps`` did (400 frames of dice patches, 316 MB: peak 415 MB streamed, 1,047 MB
    so; 13,040 frames ran a 23 GB machine out of memory)."""
    with path.open("wb") as out:
        pickle.dump(samples, out, protocol=pickle.HIGHEST_PROTOCOL)


def load_samples(path: Path) -> Any:
    """What ``save_samples`` wrote, read as a stream (the same 400 frames: peak 393 MB, against
    701 MB through ``read_bytes``)."""
    with path.open("rb") as source:
        return pickle.load(source)


def load_found(data: Path, validation: range, held: bool) -> list[FoundSample]:
    """The samples of the chunks ``data/chunk-<first>.pkl`` whose first seed lies in
    ``validation`` (``held``) or outside it."""
    samples: list[FoundSample] = []
    for path in sorted(data.glob("chunk-*.pkl")):
        if (int(path.stem.split("-")[1]) in validation) == held:
            samples.extend(load_samples(path))
    return samples


def found_batch(
    samples: list[FoundSample],
    share: float,
    size: int,
    rng: np.random.Generator | None,
    jitter: float = 0.08,
    turned: float | None = None,
) -> npt.NDArray[np.float32]:
    """A network's inputs for ``samples``: ``size`` pixels square crops ``share`` times each
    side wide (``vision.crops.crop_inputs``, as the kiosk crops them), or with ``rng`` each
    degraded (``train_dice.degrade``), its centre moved and side scaled by up to ``jitter``
    of the side, and turned by any angle; with ``turned`` (degrees) each crop is turned by its
    sample's ``angle`` instead, with ``rng`` up to ``turned`` either way of it and mirrored
    left to right half the time (``train_lean``: the nadir kept up)."""
    from vision.training.train_dice import degrade

    batch = np.empty((len(samples), 3, size, size), np.float32)
    for index, s in enumerate(samples):
        angle = 0.0 if turned is None else s.angle
        if rng is None:
            patch, center, side = s.patch, s.center, s.side
        else:
            patch = degrade(rng, s.patch)
            shift = rng.uniform(-jitter, jitter, 2) * s.side
            center = (s.center[0] + shift[0], s.center[1] + shift[1])
            side = s.side * rng.uniform(1.0 - jitter, 1.0 + jitter)
            if turned is None:
                angle = float(rng.uniform(0.0, 360.0))
            else:
                angle += float(rng.uniform(-turned, turned))
        crop = crops.crop_inputs(patch, [center], [side], share, size, [angle])[0]
        if turned is not None and rng is not None and rng.random() < 0.5:
            crop = crop[:, :, ::-1]
        batch[index] = crop
    return batch


def jittered_corners(corners: Corners, rng: np.random.Generator, reach_px: float) -> Corners:
    """``corners`` each moved by up to ``reach_px`` pixels along x and y (uniform), reordered:
    the labelled outline as a located one might be off."""
    moved = np.asarray(corners) + rng.uniform(-reach_px, reach_px, (4, 2))
    return order_corners(moved)


def conv_block(inputs: int, outputs: int, stride: int | tuple[int, int] = 1) -> list[Any]:
    """A 3x3 convolution (no bias, ``stride``), batch norm and ReLU (PyTorch modules)."""
    from torch import nn

    return [
        nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(outputs),
        nn.ReLU(),
    ]


def chunked_main(
    description: str,
    defaults: tuple[Path, int, int, int],
    chunk: tuple[int, str],
    render: Callable[[int, Path, ReadConfig, argparse.Namespace], None],
    train: Callable[[argparse.Namespace, ReadConfig], None],
    extra: Callable[[argparse.ArgumentParser], object] | None = None,
) -> None:
    """The command line of a trainer that renders its data in chunks, then trains.

    ``render DATA`` renders the chunks of frames ``--first`` .. ``--first`` + ``--frames`` - 1
    (``chunk``: frames per chunk and file suffix) not yet in ``--data`` (``render(first, data,
    config, args)`` writes ``data/chunk-<first>.<suffix>``); ``train`` calls
    ``train(args, config)``.
    ``defaults``: data folder, first seed, frames, epochs; ``extra`` adds arguments.
    OpenCV is held to one thread."""
    data, first, frames, epochs = defaults
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("command", choices=("render", "train"))
    parser.add_argument("--data", type=Path, default=data)
    parser.add_argument("--first", type=int, default=first)
    parser.add_argument("--frames", type=int, default=frames)
    parser.add_argument("--epochs", type=int, default=epochs)
    if extra is not None:
        extra(parser)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    config = ReadConfig()
    args.data.mkdir(parents=True, exist_ok=True)
    if args.command == "train":
        train(args, config)
        return
    size, suffix = chunk
    for start in range(args.first, args.first + args.frames, size):
        if not (args.data / f"chunk-{start}.{suffix}").exists():
            render(start, args.data, config, args)
            print(f"chunk {start} done", flush=True)


def crop_net(size: int, outputs: int) -> Any:
    """A small network (PyTorch) from a ``size`` pixels square crop (``found_batch``) to
    ``outputs`` logits: four pairs of 3x3 convolutions, each pair but the last halving the
    crop, then two linear layers (the judge of leaning dice, the cube's reader)."""
    from torch import nn

    return nn.Sequential(
        *conv_block(3, 16),
        *conv_block(16, 16, 2),
        *conv_block(16, 32),
        *conv_block(32, 32, 2),
        *conv_block(32, 48),
        *conv_block(48, 48, 2),
        *conv_block(48, 64, 2),
        nn.Flatten(),
        nn.Linear(64 * (size // 16) ** 2, 64),
        nn.ReLU(),
        nn.Linear(64, outputs),
    )


def found_net(size: int, outputs: int, name: str, resume: bool) -> Any:
    """``crop_net(size, outputs)``, or with ``resume`` the shipped network ``name`` to fine-tune
    (``vision.training.export.load_exported``)."""
    from vision.training.export import load_exported

    net = crop_net(size, outputs)
    if resume:
        load_exported(net, name)
    return net


def fit_found(
    net: Any,
    samples: list[FoundSample],
    make_batch: Callable[[list[FoundSample], np.random.Generator], npt.NDArray[np.float32]],
    loss: Callable[[Any, Any], Any],
    epochs: int,
    on_epoch: Callable[[int, float], None],
    resume: bool = False,
) -> None:
    """Train ``net`` on ``samples`` for ``epochs``: batches of ``FIT_BATCH`` samples in a fresh
    order each epoch (``make_batch`` jitters them; one generator seeded ``FIT_SEED`` draws
    both), ``loss(logits, labels)``, AdamW with a one-cycle schedule peaking at ``FIT_RATE``
    (with ``resume``, fine-tuning a shipped net, ``found_net``: a tenth of it, the batch norms
    kept at their folded statistics); ``on_epoch(epoch, mean loss)`` after each epoch, with the
    net in evaluation mode."""
    import torch

    from vision.training.export import freeze_norms

    rng, size = np.random.default_rng(FIT_SEED), FIT_BATCH
    rate = FIT_RATE / 10 if resume else FIT_RATE
    labels = torch.tensor([s.label for s in samples])
    steps = len(samples) // size
    optimiser = torch.optim.AdamW(net.parameters(), rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, rate, total_steps=epochs * steps)
    for epoch in range(epochs):
        net.train()
        if resume:
            freeze_norms(net)
        order = rng.permutation(len(samples))
        total = 0.0
        for step in range(steps):
            chosen = order[step * size : (step + 1) * size]
            batch = torch.from_numpy(make_batch([samples[i] for i in chosen], rng))
            value = loss(net(batch), labels[chosen])
            optimiser.zero_grad()
            value.backward()
            optimiser.step()
            schedule.step()
            total += value.item()
        net.eval()
        on_epoch(epoch, total / max(1, steps))


def fit_epochs(
    net: Any,
    size: int,
    batch: int,
    rate: float,
    epochs: int,
    generator: Any,
    batch_loss: Callable[[Any], Any],
    report: Callable[[], str],
    resume: bool = False,
) -> None:
    """Train ``net`` for ``epochs`` on ``size`` items (``train_checkers``, ``train_trays``,
    ``train_stacks``): batches of ``batch`` in a fresh order each epoch (``generator``, a torch
    generator), ``batch_loss(index)`` the loss of the items ``index`` (a tensor), AdamW with a
    one-cycle schedule peaking at ``rate``; with ``resume`` (fine-tuning a shipped net) at a
    tenth of it, the batch norms kept at their statistics. After each epoch it prints the mean
    loss and ``report()``."""
    import torch

    from vision.training.export import freeze_norms

    rate = rate / 10 if resume else rate
    optimiser = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=1e-4)
    steps = epochs * (size // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=rate, total_steps=steps)
    for epoch in range(epochs):
        net.train()
        if resume:
            freeze_norms(net)
        order = torch.randperm(size, generator=generator)
        total = 0.0
        for start in range(0, size - batch + 1, batch):
            loss = batch_loss(order[start : start + batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * batch
        print(f"epoch {epoch}: loss {total / size:.4f}; {report()}", flush=True)


def found_main(
    description: str,
    defaults: tuple[Path, int, int, int],
    chunk: int,
    mine_frame: Callable[[int, ReadConfig], list[FoundSample]],
    train: Callable[[Path, DiceConfig, int, int, bool], None],
) -> None:
    """The command line of a trainer on found objects (``chunked_main``): ``render`` writes
    the samples ``mine_frame(seed, config)`` of ``chunk`` frames at a time to
    ``data/chunk-<first>.pkl``; ``train`` calls ``train(data, dice config, epochs,
    threads, resume)`` (``--threads``, default 1; ``--resume``: fine-tune the shipped net)."""

    def mine_chunk(first: int, data: Path, config: ReadConfig, _: argparse.Namespace) -> None:
        samples = [s for seed in range(first, first + chunk) for s in mine_frame(seed, config)]
        save_samples(data / f"chunk-{first}.pkl", samples)

    chunked_main(
        description,
        defaults,
        (chunk, "pkl"),
        mine_chunk,
        lambda args, config: train(args.data, config.dice, args.epochs, args.threads, args.resume),
        threads_and_resume,
    )


def threads_and_resume(parser: argparse.ArgumentParser) -> None:
    """``--threads`` (torch's, default 1) and ``--resume`` (fine-tune the shipped net)."""
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--resume", action="store_true", help="fine-tune the shipped net")


# ``judge_report``'s thresholds unless told (those of the judge of stacks).
JUDGE_THRESHOLDS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)


def load_judge_chunks(paths: list[Path]) -> tuple[Image, npt.NDArray[np.int64]]:
    """Crops and labels of a judge's cached chunks (``train_stacks``, ``train_edges``)."""
    crops, labels = [], []
    for path in paths:
        with np.load(path) as chunk:
            if len(chunk["labels"]):
                crops.append(chunk["crops"])
                labels.append(chunk["labels"])
    return np.concatenate(crops), np.concatenate(labels)


def augment_crops(x: Any, generator: Any) -> Any:
    """A batch of a judge's crops (N x 3 x H x W, PyTorch) mirrored across at random (a point
    seen from the other side), in shuffled colour channel order, with brightness, contrast
    and noise: boards and palettes the renderer may not make."""
    import torch

    n = len(x)
    flip = torch.rand(n, generator=generator) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(3), x)
    x = x[:, torch.randperm(3, generator=generator)]
    gain = 0.75 + 0.5 * torch.rand(n, 1, 1, 1, generator=generator)
    shift = 0.2 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5)
    return x * gain + shift + 0.02 * torch.randn(x.shape, generator=generator)


def judge_logits(net: Any, x: Image) -> npt.NDArray[np.float64]:
    """A judge's logits (one output, or a tuple side by side) on crops ``x`` (N x H x W x 3,
    BGR): N x outputs."""
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 256):
            logits = net(torch.from_numpy(nets.image_batch(x[i : i + 256])))
            out.append(torch.cat(logits, dim=1) if isinstance(logits, tuple) else logits)
    return np.asarray(torch.cat(out).numpy(), np.float64)


def sigmoid(logits: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Probabilities from logits (for a judge's report)."""
    return np.asarray(1.0 / (1.0 + np.exp(-logits)), np.float64)


def judge_report(
    probabilities: npt.NDArray[np.float64],
    labels: npt.NDArray[np.int64],
    names: tuple[str, str] = ("hiding", "plain"),
    thresholds: tuple[float, ...] = JUDGE_THRESHOLDS,
) -> str:
    """AUC, and per threshold (``thresholds``) the share of the samples labelled 1 and of those
    labelled 0 called 1 (``names``: what the two are, in the report)."""
    yes, no = probabilities[labels == 1], probabilities[labels == 0]
    order = np.argsort(np.concatenate([no, yes]), kind="stable")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    auc = (ranks[len(no) :].sum() - len(yes) * (len(yes) + 1) / 2) / max(1, len(yes) * len(no))
    called = "; ".join(
        f"{t}: {names[0]} {np.mean(yes >= t):.2%}, {names[1]} {np.mean(no >= t):.2%}"
        for t in thresholds
    )
    return f"AUC {auc:.4f} ({len(yes)} {names[0]}, {len(no)} {names[1]}); {called}"


def fit_judge(
    build: Callable[[], Any],
    data: tuple[Path, range],
    network: tuple[str, tuple[str, ...]],
    loss: Callable[[Any, Any], Any],
    summary: Callable[[npt.NDArray[np.float64], npt.NDArray[np.int64]], str],
    schedule: tuple[int, int, float, int],
    resume: bool,
) -> None:
    """Fit a judge (``train_stacks``, ``train_edges``; ``build()`` makes it, after the seeds are
    fixed) on the cached chunks of ``data`` (the folder, and the seeds whose chunks are held
    out for validation) and export it as ``network`` (its name and outputs): ``loss(net's
    outputs, labels)`` on crops augmented by ``augment_crops``; ``schedule``: epochs, batch,
    peak learning rate and torch's threads (``fit_epochs``); ``summary(judge_logits,
    labels)`` of the validation crops after each epoch. With ``resume``, the shipped judge is
    fine-tuned instead, at a tenth of the learning rate, its batch norms kept at their folded
    statistics (``vision.training.export.load_exported``)."""
    import torch

    from vision.training.export import export_onnx, load_exported

    folder, validation = data
    epochs, batch, rate, threads = schedule
    name, outputs = network
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    paths = sorted(folder.glob("chunk-*.npz"), key=lambda p: int(p.stem.split("-")[1]))
    held = [int(p.stem.split("-")[1]) in validation for p in paths]
    x_fit, y_fit = load_judge_chunks([p for p, h in zip(paths, held, strict=True) if not h])
    x_val, y_val = load_judge_chunks([p for p, h in zip(paths, held, strict=True) if h])
    print(f"crops: fit {len(x_fit)}, validation {len(x_val)}", flush=True)
    net = build()
    if resume:
        load_exported(net, name)
        print(f"shipped judge: {summary(judge_logits(net, x_val), y_val)}", flush=True)
    fit_y = torch.from_numpy(y_fit.astype(np.float32))

    def batch_loss(index: Any) -> Any:
        x = augment_crops(torch.from_numpy(nets.image_batch(x_fit[index.numpy()])), generator)
        return loss(net(x), fit_y[index])

    fit_epochs(
        net,
        len(x_fit),
        batch,
        rate,
        epochs,
        generator,
        batch_loss,
        lambda: summary(judge_logits(net, x_val), y_val),
        resume,
    )
    example = torch.from_numpy(nets.image_batch(x_val[:4]))
    print(export_onnx(net, example, name, outputs))


def judge_main(
    description: str,
    defaults: tuple[Path, int, int, int],
    chunk: int,
    render: Callable[[int, Path, ReadConfig], None],
    train: Callable[[Path, int, int, bool], None],
) -> None:
    """The command line of a judge's trainer (``chunked_main``, ``defaults`` as there):
    ``render(first, data, config)`` writes ``data/chunk-<first>.npz`` of ``chunk`` frames;
    ``train(data, epochs, threads, resume)`` (``threads_and_resume``)."""
    chunked_main(
        description,
        defaults,
        (chunk, "npz"),
        lambda first, data, config, _: render(first, data, config),
        lambda args, config: train(args.data, args.epochs, args.threads, args.resume),
        threads_and_resume,
    )


def stretched_net(height: int, width: int, classes: int) -> Any:
    """A judge (PyTorch; ``train_edges``, ``train_bar``, ``train_long_rows``) of ``height`` x
    ``width`` crops: the crop as cut and stretched (each crop less its mean colour, over its own
    spread: a faint checker shows as well as a plain one) side by side as six channels, four
    3x3 convolutions (the first halving the crop, the next two followed by 2x2 max pools), then
    two linear layers over the whole map (where a checker lies in the crop tells what it is) to
    ``classes`` logits and a light logit."""
    import torch
    from torch import nn

    class StretchedNet(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *conv_block(6, 16, 2),
                *conv_block(16, 24),
                nn.MaxPool2d(2),
                *conv_block(24, 32),
                nn.MaxPool2d(2),
                *conv_block(32, 48),
            )
            cells = ((height + 1) // 2 // 4) * ((width + 1) // 2 // 4)
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Linear(48 * cells, 32),
                nn.ReLU(),
                nn.Linear(32, classes + 1),
            )

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            centred = x - x.mean(dim=(2, 3), keepdim=True)
            spread = centred.std(dim=(1, 2, 3), keepdim=True) + 0.01
            y = self.head(self.features(torch.cat([x, 0.25 * centred / spread], dim=1)))
            return y[:, :classes], y[:, classes:]

    return StretchedNet()


def colour_loss(light: Any, labels: Any, held: Any) -> Any:
    """A judge's loss on the colour (``train_edges``, ``train_bar``): binary cross-entropy of
    the light logits (N x 1) against ``labels`` (N: 1 light), averaged over the samples
    ``held`` marks (N: 1.0 where the crop holds checkers, whose colour is known)."""
    from torch.nn import functional

    each = functional.binary_cross_entropy_with_logits(light[:, 0], labels, reduction="none")
    return (each * held).sum() / held.sum().clamp(min=1.0)


def count_and_colour_loss(out: Any, labels: Any) -> Any:
    """A counting judge's loss (``train_bar``, ``train_long_rows``): cross-entropy of its
    count logits against ``labels[:, 0]``, and ``colour_loss`` of its light logit against
    ``labels[:, 1]`` on the crops holding checkers."""
    from torch.nn import functional

    count, light = out
    miss = functional.cross_entropy(count, labels[:, 0].long())
    return miss + colour_loss(light, labels[:, 1], (labels[:, 0] > 0).float())


def count_summary(
    logits: npt.NDArray[np.float64], labels: npt.NDArray[np.int64], counts: int, sure: float
) -> str:
    """Of a counting judge's validation crops (``logits``: its ``counts`` count logits, then
    the light logit): the likeliest count right, given at ``sure`` and wrong so, within one,
    and the light output right on crops holding checkers."""
    shifted = np.exp(logits[:, :counts] - logits[:, :counts].max(axis=1, keepdims=True))
    probabilities = shifted / shifted.sum(axis=1, keepdims=True)
    best = probabilities.argmax(axis=1)
    given = probabilities.max(axis=1) >= sure
    right = best == labels[:, 0]
    near = np.abs(best - labels[:, 0]) <= 1
    held = labels[:, 0] > 0
    light = np.mean((logits[held, counts] >= 0.0) == (labels[held, 1] == 1))
    return (
        f"count right {right.mean():.4%} (within one {near.mean():.2%}), given at {sure} "
        f"{given.mean():.2%} and wrong so {(given & ~right).mean():.4%} ({len(labels)} crops, "
        f"{held.sum()} holding checkers); light right {light:.4%}"
    )


# A judge's samples of one frame (``render_judge_chunk``): given the frame, its scene and a way
# to locate its board, the crops and their labels, or None where the frame gives none.
JudgeCut = Callable[
    [Image, Scene, Callable[[], BoardView]], tuple[Image, npt.NDArray[np.int64]] | None
]


def render_judge_chunk(
    first: int,
    chunk: int,
    data: Path,
    config: ReadConfig,
    scene_of: Callable[[int], Scene],
    cut: JudgeCut,
    jitter_px: float,
) -> None:
    """Render frames ``first .. first + chunk - 1`` (``scene_of(seed)``) and write their crops,
    labels and seeds (one per crop) to ``data/chunk-<first>.npz`` (``train_stacks``,
    ``train_edges``, ``train_bar``, ``train_long_rows``): ``cut`` gives each frame's samples.
    Frames with a hand over the board (labelled occluded) or without a board are skipped. The
    board is located as the reader meets it: the labelled corners jittered by up to
    ``jitter_px`` (a generator seeded by ``first``, drawn from only where ``cut`` locates a
    frame) and the bar ``vision.board.find_bar`` finds there."""
    rng = np.random.default_rng(first)
    crops, labels, seeds = [], [], []
    for seed in range(first, first + chunk):
        scene = scene_of(seed)
        image, label = render_scene(scene)
        outline = label.board.corners
        if not label.board.found or outline is None or label.occluded:
            continue

        def locate(outline: Corners = outline, image: Image = image) -> BoardView:
            corners = jittered_corners(outline, rng, jitter_px)
            return board_from_corners(
                image, corners, config.board, find_bar(image, corners, config.board)
            )

        samples = cut(image, scene, locate)
        if samples is None:
            continue
        crops.append(samples[0])
        labels.append(samples[1])
        seeds += [seed] * len(samples[0])
    np.savez_compressed(
        data / f"chunk-{first}.npz",
        crops=np.concatenate(crops) if crops else np.zeros((0, 1, 1, 3), np.uint8),
        labels=np.concatenate(labels) if labels else np.zeros(0, np.int64),
        seeds=np.array(seeds, np.int64),
    )
