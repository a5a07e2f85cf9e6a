"""Training the reader's networks (PyTorch, the ``train`` extra) and exporting them to ONNX.

Each ``train_*`` script renders its own data from tuning seeds only (``vision.render.dataset``),
trains deterministically on the CPU and writes ``vision/models/<name>.onnx``; the reader runs the
files with OpenCV (``vision.nets``) and never imports PyTorch.
"""
