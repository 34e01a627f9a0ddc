// A stand-in for https://telegram.org/js/telegram-web-app.js in the browser tests: it reads the
// launch parameters from the URL as Telegram's script does (tgWebAppData, tgWebAppThemeParams,
// tgWebAppStartParam... in the fragment), sets the theme's CSS variables and records the
// haptic feedback asked for (window.__haptics). Nothing is fetched from the internet.
(function () {
  const params = new URLSearchParams(location.hash.slice(1));
  const initData = params.get("tgWebAppData") || "";
  const data = new URLSearchParams(initData);
  let user = null;
  try { user = JSON.parse(data.get("user") || "null"); } catch (e) { user = null; }
  let theme = {};
  try { theme = JSON.parse(params.get("tgWebAppThemeParams") || "{}"); } catch (e) { theme = {}; }
  for (const [k, v] of Object.entries(theme)) {
    document.documentElement.style.setProperty(`--tg-theme-${k.replace(/_/g, "-")}`, v);
  }
  window.__haptics = [];
  window.Telegram = {
    WebApp: {
      initData: initData,
      initDataUnsafe: {
        user: user,
        auth_date: Number(data.get("auth_date") || 0),
        start_param: data.get("start_param") || params.get("tgWebAppStartParam") || undefined,
        hash: data.get("hash") || "",
      },
      version: params.get("tgWebAppVersion") || "6.0",
      platform: params.get("tgWebAppPlatform") || "unknown",
      themeParams: theme,
      colorScheme: "light",
      isExpanded: false,
      ready() {},
      expand() { this.isExpanded = true; },
      HapticFeedback: {
        impactOccurred(style) { window.__haptics.push(["impact", style]); },
        notificationOccurred(type) { window.__haptics.push(["notification", type]); },
        selectionChanged() { window.__haptics.push(["selection"]); },
      },
    },
  };
})();
