# Tapete: the Telegram bot. Build: docker build -t tapete .   Run: see compose.yaml / README.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the package needs (tests, benches and docs stay out: see .dockerignore).
COPY pyproject.toml README.md constraints.txt ./
COPY engine ./engine
COPY bot ./bot
COPY locales ./locales
# The texts are compiled (.po -> .mo, Babel) before the install, which ships only the .mo files.
RUN pip install -c constraints.txt babel \
    && for po in locales/*/LC_MESSAGES/*.po; do pybabel -q compile -i "$po" -o "${po%.po}.mo"; done \
    && pip install -c constraints.txt . && rm -rf /app/build

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin tapete
USER tapete
WORKDIR /home/tapete

# Long polling by default; `tapete --webhook` (with TAPETE_WEBHOOK_*) listens on this port.
EXPOSE 8443
CMD ["tapete"]
