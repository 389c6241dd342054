#pragma once

#include <QString>

namespace Gatehouse::Console {

// What Qt Quick draws the console with, chosen before its first window is made.
//
// On a machine without a GPU (virtual machines, servers, remote desktops, Xvfb), OpenGL is
// Mesa's llvmpipe, a software rasterizer that compiles shaders with LLVM. Qt Quick's own
// software renderer draws this flat 2D console faster there and without LLVM in memory (about
// 100 MB less with 100,000 orders listed; README "Benchmarks"). With a GPU, and on Windows and
// macOS, Qt's default stays.
//
// The user's choice wins: QT_QUICK_BACKEND (e.g. "software") or QSG_RHI_BACKEND (e.g.
// "opengl", to keep llvmpipe) set in the environment are left to Qt.
struct SceneGraphChoice
{
    bool software = false;
    QString reason; // for the log, e.g. "no GPU device in /dev/dri"
};

// The decision alone, from the environment and the device nodes under devDir (Linux and the
// BSDs: dri/renderD*, dri/card*, nvidiactl; Mesa's LIBGL_ALWAYS_SOFTWARE and GALLIUM_DRIVER
// asking for a software rasterizer count as no GPU). Changes nothing.
SceneGraphChoice sceneGraphFor(const QString &devDir = QStringLiteral("/dev"));

// sceneGraphFor(), applied: QQuickWindow::setGraphicsApi(Software) when it says software.
SceneGraphChoice chooseSceneGraph();

} // namespace Gatehouse::Console
