// The tool registry: the one place that knows every tool, in key order.
#include "app/tools/agent_tool.hpp"
#include "app/tools/brush_tool.hpp"
#include "app/tools/circle_tool.hpp"
#include "app/tools/erase_tool.hpp"
#include "app/tools/fill_tool.hpp"
#include "app/tools/line_tool.hpp"
#include "app/tools/pan_tool.hpp"
#include "app/tools/rect_tool.hpp"
#include "app/tools/tool.hpp"

namespace pl::app {

std::vector<std::unique_ptr<Tool>> make_tools() {
  std::vector<std::unique_ptr<Tool>> tools;
  tools.push_back(std::make_unique<PanTool>());
  tools.push_back(std::make_unique<BrushTool>());
  tools.push_back(std::make_unique<EraseTool>());
  tools.push_back(std::make_unique<RectTool>());
  tools.push_back(std::make_unique<LineTool>());
  tools.push_back(std::make_unique<FillTool>());
  tools.push_back(std::make_unique<CircleTool>());
  tools.push_back(std::make_unique<AgentTool>());
  return tools;
}

}  // namespace pl::app
