#include "scenegraph.h"

#include <QDir>
#include <QFileInfo>
#include <QQuickWindow>

namespace Gatehouse::Console {

SceneGraphChoice sceneGraphFor(const QString &devDir)
{
    for (const char *name : {"QT_QUICK_BACKEND", "QSG_RHI_BACKEND"})
        if (qEnvironmentVariableIsSet(name))
            return {false, QStringLiteral("%1 is set, Qt chooses").arg(QLatin1String(name))};
#if defined(Q_OS_WIN) || defined(Q_OS_DARWIN) || defined(Q_OS_ANDROID) || defined(Q_OS_WASM)
    Q_UNUSED(devDir)
    return {false, QStringLiteral("Qt's default graphics API")};
#else
    // Mesa's own switches for a software rasterizer.
    if (qEnvironmentVariable("LIBGL_ALWAYS_SOFTWARE") == QLatin1String("1") ||
        qEnvironmentVariable("LIBGL_ALWAYS_SOFTWARE")
                .compare(QLatin1String("true"), Qt::CaseInsensitive) == 0)
        return {true, QStringLiteral("LIBGL_ALWAYS_SOFTWARE asks Mesa for a software rasterizer")};
    const QString gallium = qEnvironmentVariable("GALLIUM_DRIVER");
    if (gallium == QLatin1String("llvmpipe") || gallium == QLatin1String("softpipe"))
        return {true, QStringLiteral("GALLIUM_DRIVER=%1 is a software rasterizer").arg(gallium)};
    const QDir dri(devDir + QStringLiteral("/dri"));
    const QStringList gpus = dri.entryList({QStringLiteral("renderD*"), QStringLiteral("card*")},
                                           QDir::Files | QDir::System);
    if (!gpus.isEmpty())
        return {false, QStringLiteral("a GPU device: %1").arg(dri.filePath(gpus.constFirst()))};
    if (QFileInfo::exists(devDir + QStringLiteral("/nvidiactl")))
        return {false, QStringLiteral("a GPU device: %1/nvidiactl").arg(devDir)};
    return {true, QStringLiteral("no GPU device in %1/dri, so OpenGL would be a software "
                                 "rasterizer (llvmpipe)")
                      .arg(devDir)};
#endif
}

SceneGraphChoice chooseSceneGraph()
{
    SceneGraphChoice choice = sceneGraphFor();
    if (choice.software)
        QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
    return choice;
}

} // namespace Gatehouse::Console
