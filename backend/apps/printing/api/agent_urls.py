from django.urls import path

from . import agent_views

urlpatterns = [
    path("pair/", agent_views.PairView.as_view(), name="printer-pair"),
    path("heartbeat/", agent_views.HeartbeatView.as_view(), name="printer-heartbeat"),
    path("jobs/", agent_views.JobPollView.as_view(), name="printer-jobs"),
    path("jobs/<int:job_id>/result/", agent_views.JobResultView.as_view(), name="printer-job-result"),
    path("agent.py", agent_views.AgentDownloadView.as_view(), name="printer-agent-download"),
]
