"""The reader's trained networks as ONNX files (``vision.nets`` loads them; ``vision/training``
writes them). A package so that the files install with the wheel."""
