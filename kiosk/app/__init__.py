"""The Kivy touchscreen: models (EventDispatchers, no widgets), widgets, and ``.kv`` layouts.

- :mod:`kiosk.app.snapshot`, :mod:`kiosk.app.prompts`, :mod:`kiosk.app.director`,
  :mod:`kiosk.app.boardview`: the plain-dict formats the screens are filled from (pure);
- :mod:`kiosk.app.model`: ``TableModel`` / ``DirectorModel`` and the functions filling them;
- :mod:`kiosk.app.texts`, :mod:`kiosk.app.cards`, :mod:`kiosk.app.i18n`: what is written, in
  English or Japanese (``locale/ja/LC_MESSAGES/gammon_kiosk.po``);
- :mod:`kiosk.app.board`, :mod:`kiosk.app.table`, :mod:`kiosk.app.director_view`: widgets;
  ``table.kv`` / ``director.kv``: their layout; :mod:`kiosk.app.actions`: what touches emit;
- :mod:`kiosk.app.main`: ``KioskApp`` over injected sources; :mod:`kiosk.app.referee_adapter`
  and :mod:`kiosk.app.referee_link`: the referee's views in, referee events out.
"""
