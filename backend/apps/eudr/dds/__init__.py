"""The due diligence package of a raw-material delivery (docs/eudr.md, "Due diligence package").

- checks.py: what must be present before packaging (errors refuse, warnings are carried along);
- statement.py: dds.json, the Annex II information shaped like the EU information system's API;
- summary_pdf.py: summary.pdf, the human-readable facts and checks;
- package.py: the ZIP (dds.json, geolocation.geojson, files/..., summary.pdf) saved through the storage API;
- jobs.py, job_models.py: the package jobs (a row each, in the database; the Celery task in
  apps/eudr/tasks.py updates it; only a running build's progress is in the cache).
"""
