"""The director dashboard: a Starlette web app over the venue broker (see ``app``)."""
