"""Camera frame sources behind one protocol, and a watchdog for cameras that vanish or freeze.

* :class:`~hardware.camera.replay.ReplaySource`: a folder of images or a video file (demo, tests).
* :class:`~hardware.camera.opencv_source.OpenCVSource`: a USB camera or a video via VideoCapture.
* :class:`~hardware.camera.picamera_source.PiCameraSource`: the Pi camera (picamera2, lazy import).
* :class:`~hardware.camera.watchdog.CameraWatchdog`: wraps any source; reports and reconnects.
"""

from hardware.camera.frame import CameraError, Frame, FrameSource

__all__ = ["CameraError", "Frame", "FrameSource"]
